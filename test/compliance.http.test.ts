// GET /projects/:id/compliance through HTTP (endpoint row 37): the obligations of the site's
// jurisdiction with checkable citations, plan-set readiness for a solar design, and the 409s.
import { describe, expect, it } from '@jest/globals';
import { type Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';
import { newCustomer, newProject, reportContent } from './support/projects.ts';

const { platform, api, tenantId } = await suiteTenant('Compliance Co');
const customerId = await newCustomer(api, 'Compliance Customer');

interface Obligation {
  id: string;
  citation: { instrument: string; section: string; url: string };
  guidance?: { instrument: string };
}
interface Report extends Body {
  jurisdiction: { id: string; countryCode: string; locatedBy: string };
  rulesetVersion: string;
  obligations: Obligation[];
  planSet?: { ready: boolean; missing: string[] };
  note: string;
}
const report = (reply: { body: Body }) => reply.body.compliance as Report;

async function complianceAt(fields: Body) {
  const project = await newProject(api, customerId, fields);
  return api.get(`/projects/${project.id}/compliance`);
}

describe('GET /projects/:id/compliance', () => {
  it('places a Denver site under 14 CFR Part 107 with checkable eCFR citations', async () => {
    const reply = await complianceAt({ siteAddress: '1 Main St, Denver', geo: { lat: 39.74, lng: -104.99 } });
    expect(reply.status).toBe(200);
    const r = report(reply);
    expect(r.jurisdiction).toMatchObject({ id: 'us-faa', countryCode: 'US', locatedBy: 'geo' });
    expect(r.rulesetVersion).toMatch(/^\d{4}\.\d+$/);
    const pilot = r.obligations.find((o) => o.id === 'us-pilot-certificate');
    expect(pilot?.citation).toEqual({
      instrument: '14 CFR Part 107 (Small Unmanned Aircraft Systems)',
      section: '§ 107.12',
      url: 'https://www.ecfr.gov/current/title-14/chapter-I/subchapter-F/part-107/subpart-A/section-107.12',
    });
    for (const obligation of r.obligations) {
      expect(obligation.citation.url).toMatch(/^https:\/\/www\.ecfr\.gov\//);
      expect(obligation.citation.section).toMatch(/^§ \d+\.\d+$/);
    }
    expect(r.note).toMatch(/not an authorisation to fly/);
    expect(r.planSet).toBeUndefined();
  });

  it.each([
    ['Leeds', { lat: 53.8, lng: -1.55 }, 'uk-caa', 'GB', /legislation\.gov\.uk\/eur\/2019\/947/],
    [
      'Paris',
      { lat: 48.85, lng: 2.35 },
      'eu-easa',
      'FR',
      /eur-lex\.europa\.eu\/eli\/reg_(impl|del)\/2019\/94[57]/,
    ],
    [
      'Toronto',
      { lat: 43.65, lng: -79.38 },
      'ca-tc',
      'CA',
      /laws-lois\.justice\.gc\.ca\/eng\/regulations\/SOR-96-433/,
    ],
    ['Sydney', { lat: -33.87, lng: 151.21 }, 'au-casa', 'AU', /legislation\.gov\.au\/F1998B00220/],
  ])(
    'places %s under its own rules, each citation with an official URL and a section',
    async (_city, geo, id, country, url) => {
      const r = report(await complianceAt({ geo }));
      expect(r.jurisdiction).toMatchObject({ id, countryCode: country });
      expect(r.obligations.length).toBeGreaterThanOrEqual(4);
      for (const obligation of r.obligations) {
        expect(obligation.citation.url).toMatch(url);
        expect(obligation.citation.section).not.toBe('');
      }
    },
  );

  it('cites Regulation (EU) 2019/945 for aircraft classes and CAP 722 as UK guidance', async () => {
    const eu = report(await complianceAt({ geo: { lat: 52.52, lng: 13.4 } }));
    expect(eu.obligations.map((o) => o.citation.instrument)).toContain(
      'Commission Delegated Regulation (EU) 2019/945',
    );
    const uk = report(await complianceAt({ geo: { lat: 51.5, lng: -0.12 } }));
    const guidance = uk.obligations.map((o) => o.guidance);
    expect(guidance.some((g) => g?.instrument.startsWith('CAA CAP 722'))).toBe(true);
  });

  it('places a site without geo by geocoding its address', async () => {
    const r = report(await complianceAt({ siteAddress: '200 Main St, Calgary, Alberta' }));
    expect(r.jurisdiction).toMatchObject({ id: 'ca-tc', countryCode: 'CA', locatedBy: 'address' });
  });

  it('answers 409 naming why when the site cannot be placed', async () => {
    const uncovered = await complianceAt({ geo: { lat: -23.55, lng: -46.63 } });
    expect(uncovered.status).toBe(409);
    expect(uncovered.body.code).toBe('conflict');
    expect(uncovered.body.details).toMatchObject({ reason: 'jurisdiction_not_covered', countryCode: 'BR' });
    expect(uncovered.body.error).toContain('BR');
    const atSea = await complianceAt({ geo: { lat: 30, lng: -40 } });
    expect([atSea.status, (atSea.body.details as Body).reason]).toEqual([409, 'outside_any_country']);
    const nowhere = await complianceAt({ siteAddress: 'Plot 7, Nowhere-in-particular-xyz' });
    expect([nowhere.status, (nowhere.body.details as Body).reason]).toEqual([409, 'site_not_located']);
  });

  it('answers 404 for a project that does not exist', async () => {
    const reply = await api.get('/projects/prj_missing/compliance');
    expect([reply.status, reply.body.code]).toEqual([404, 'not_found']);
  });

  it('reports plan-set readiness once a solar design exists, from the permit metadata in effect', async () => {
    const project = await newProject(api, customerId, {
      vertical: 'solar',
      siteAddress: '9 Sun Way, Phoenix',
      geo: { lat: 33.45, lng: -112.07 },
    });
    expect(report(await api.get(`/projects/${project.id}/compliance`)).planSet).toBeUndefined();
    await reportContent(platform, tenantId, project.id, { designs: 1 });
    const before = report(await api.get(`/projects/${project.id}/compliance`)).planSet;
    expect(before).toMatchObject({
      ready: false,
      missing: ['ahj', 'utility', 'parcelNumber', 'contractorLicense'],
    });
    // The licence is a tenant default; the rest is the project's own.
    await api.post('/settings/planning', { permitDefaults: { contractorLicense: 'ROC-123456' } });
    await api.post(`/projects/${project.id}/permit`, {
      ahj: 'City of Phoenix',
      utility: 'APS',
      parcelNumber: '123-45-678',
    });
    const after = report(await api.get(`/projects/${project.id}/compliance`)).planSet;
    expect(after).toMatchObject({ ready: true, missing: [] });
  });
});
