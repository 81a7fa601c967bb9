// The rules data set: every citation checkable, every country in one jurisdiction at most, and
// the plan-set checklist.
import { describe, expect, it } from '@jest/globals';
import { JURISDICTIONS, RULESET_VERSION } from '../src/compliance/compliance-rules.data.ts';
import { jurisdictionOfCountry } from '../src/compliance/jurisdiction.ts';
import { hasSolarDesign, planSetReadiness } from '../src/compliance/plan-set.ts';

describe('the compliance rules data set', () => {
  it('is versioned and cites an official https URL and a section for every obligation', () => {
    expect(RULESET_VERSION).toMatch(/^\d{4}\.\d+$/);
    const official =
      /^https:\/\/(www\.ecfr\.gov|www\.legislation\.gov\.uk|eur-lex\.europa\.eu|laws-lois\.justice\.gc\.ca|www\.legislation\.gov\.au)\//;
    for (const jurisdiction of JURISDICTIONS) {
      for (const obligation of jurisdiction.obligations) {
        expect([obligation.id, official.test(obligation.citation.url)]).toEqual([obligation.id, true]);
        expect(obligation.citation.section.length).toBeGreaterThan(0);
      }
    }
  });

  it('places each country in at most one jurisdiction and covers the five named ones', () => {
    const countries = JURISDICTIONS.flatMap((jurisdiction) => jurisdiction.countries);
    expect(new Set(countries).size).toBe(countries.length);
    expect(['US', 'GB', 'FR', 'CA', 'AU'].map((code) => jurisdictionOfCountry(code)?.id)).toEqual([
      'us-faa',
      'uk-caa',
      'eu-easa',
      'ca-tc',
      'au-casa',
    ]);
    expect(jurisdictionOfCountry('BR')).toBeUndefined();
  });
});

describe('plan-set readiness', () => {
  const content = { designs: 1, deliverables: 0, packagedDeliverables: 0 };
  it('applies only to a solar project with a design', () => {
    expect(hasSolarDesign({ vertical: 'solar', content })).toBe(true);
    expect(hasSolarDesign({ vertical: 'solar', content: { ...content, designs: 0 } })).toBe(false);
    expect(hasSolarDesign({ vertical: 'roofing', content })).toBe(false);
  });

  it('names what is missing and is ready when nothing is', () => {
    const site = { siteAddress: '1 Sun St', geo: { lat: 1, lng: 1 }, content };
    expect(planSetReadiness(site, { ahj: 'City' }).missing).toEqual([
      'utility',
      'parcelNumber',
      'contractorLicense',
    ]);
    const full = { ahj: 'City', utility: 'APS', parcelNumber: '1', contractorLicense: 'L' };
    expect(planSetReadiness(site, full)).toMatchObject({ ready: true, missing: [] });
    expect(planSetReadiness({ content }, full).missing).toEqual(['siteAddress', 'geo']);
  });
});
