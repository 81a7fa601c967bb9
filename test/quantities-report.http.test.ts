// GET /projects/:id/quantities/report through HTTP: the volume report of a generated site with two
// piles (@fieldops/survey-fixtures/site), processed by the built-in engine. The PDF is rendered
// and read back with poppler's pdftotext: each region's volume, cut, fill and footprint, with unit
// and band, must be in its text as the quantities endpoint answers them; its first page is kept
// as a picture (pdftoppm) under $FIELDOPS_TEST_ARTIFACTS/reports. The CSV and the GeoJSON carry
// the same figures. Then each refusal: nothing measured, an unknown or out-of-scope project, a
// token without deliverable read, a format it does not make. The client page links the PDF.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { siteCloudPly } from '@fieldops/survey-fixtures/site';
import { PNG } from 'pngjs';
import { captureProject, finalizedPointCapture, type RunBody } from './support/capture.ts';
import { checkAgainstContract } from './support/contract-check.ts';
import { eventually, type Body } from './support/harness.ts';
import {
  quantitiesOf,
  regionsOf,
  stateAndRemeasure,
  twoPiles,
  type QuantitiesBody,
  type RegionFigures,
} from './support/site-regions.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const { platform, api, tenantId, token } = await suiteTenant('Report Survey Co');

/** poppler-utils: CI installs it (.ci/run); without it this suite fails, saying so. */
const POPPLER = ['pdftotext', 'pdftoppm'].every((tool) => {
  try {
    execFileSync('which', [tool]);
    return true;
  } catch {
    return false;
  }
});
const ARTIFACTS = resolve(process.env['FIELDOPS_TEST_ARTIFACTS'] ?? 'test-artifacts', 'reports');
const work = mkdtempSync(join(tmpdir(), 'fieldops-report-'));

interface Fetched {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** The report's bytes as a client downloads them, the answer held against the OpenAPI document. */
async function report(projectId: string, format?: string, bearer = token): Promise<Fetched> {
  const path = `/api/v1/projects/${projectId}/quantities/report${format ? `?format=${format}` : ''}`;
  const res = await fetch(`${platform.url}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = res.headers.get('content-type')?.startsWith('application/json');
  checkAgainstContract('GET', path, {
    status: res.status,
    headers: res.headers,
    body: json ? (JSON.parse(bytes.toString('utf8')) as unknown) : {},
  });
  return { status: res.status, headers: res.headers, bytes };
}

const errorOf = (fetched: Fetched) => JSON.parse(fetched.bytes.toString('utf8')) as Body;

async function processedSite(name: string): Promise<string> {
  const projectId = await captureProject(api, name);
  const cloud = siteCloudPly();
  const session = await finalizedPointCapture(api, projectId, cloud, {
    name: 'scan.ply',
    contentType: 'application/x-ply',
    size: cloud.length,
  });
  await eventually(async () => {
    const run = (await api.get(`/projects/${projectId}/runs/${session.runId}`)).body.run as RunBody;
    if (run.status === 'failed') throw new Error(`run failed: ${run.error}`);
    return run.status === 'succeeded' ? run : undefined;
  }, 60_000);
  return projectId;
}

const FIELDS = ['net', 'cut', 'fill', 'footprint'] as const;
const SYMBOL: Record<string, string> = { m3: 'm³', m2: 'm²', t: 't' };

/** The PDF's text, laid out as on the page (so a table row stays on one line). */
function pdfText(pdf: Buffer, name: string): string {
  const file = join(work, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
}

/** The first page as a PNG kept for a person to look at; answers its path. */
function keepFirstPage(pdf: Buffer, name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(work, `${name}.pdf`);
  writeFileSync(file, pdf);
  const prefix = join(ARTIFACTS, name);
  execFileSync('pdftoppm', ['-png', '-r', '72', '-f', '1', '-l', '1', '-singlefile', file, prefix]);
  return `${prefix}.png`;
}

/** The line of the text that states `figure` of a region: value with unit, and its band with unit. */
function expectFigureLine(text: string, region: RegionFigures, field: (typeof FIELDS)[number]): void {
  const value = region[field] as number;
  const unit = SYMBOL[(region.units as Record<string, string>)[field]!]!;
  const band = region.bands[field]!;
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.includes(`${value.toFixed(1)} ${unit}`) && l.includes(`± ${band.plusMinus.toFixed(1)} ${unit}`),
    );
  expect({ region: region.regionId, field, line }).toEqual({
    region: region.regionId,
    field,
    line: expect.stringContaining('95 % confidence'),
  });
}

describe('GET /projects/:id/quantities/report', () => {
  let projectId: string;
  let automatic: QuantitiesBody;
  let stated: QuantitiesBody;
  let pdf: Buffer;

  beforeAll(async () => {
    if (!POPPLER) throw new Error('pdftotext and pdftoppm are needed: apt-get install -y poppler-utils');
    projectId = await processedSite('Two Piles Report Yard');
    automatic = await quantitiesOf(api, projectId);
  }, 120_000);

  it('reports the automatic whole-capture region with no regions stated: said so, and no WGS 84 toe', async () => {
    expect(automatic.basis).toBe('automatic-whole-capture');
    const geo = await report(projectId, 'geojson');
    expect(geo.status).toBe(200);
    expect(geo.headers.get('content-type')).toBe('application/geo+json');
    const collection = JSON.parse(geo.bytes.toString('utf8')) as Body & { features: Body[] };
    expect(collection).toMatchObject({ type: 'FeatureCollection', quantitiesId: automatic.id });
    expect(collection.features).toHaveLength(1);
    expect(collection.features[0]).toMatchObject({
      id: 'site',
      geometry: null,
      properties: { net: { value: automatic.regions[0]!.net, unit: 'm3' } },
    });
    expect((collection.features[0]!.properties as Body).outlineM).toEqual(expect.any(Array));
    const text = pdfText((await report(projectId, 'pdf')).bytes, 'automatic');
    expect(text).toContain('not a stated stockpile');
    expectFigureLine(text, automatic.regions[0]!, 'net');
  });

  it('renders the PDF of stated regions: each region’s figures with unit, band and confidence, base, quality, datum, units, date and engine', async () => {
    ({ quantities: stated } = await stateAndRemeasure(api, projectId, twoPiles()));
    const fetched = await report(projectId);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('application/pdf');
    expect(fetched.headers.get('content-disposition')).toContain(`volume-report-${stated.id}.pdf`);
    pdf = fetched.bytes;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf, 'stated');
    expect(text).toContain(stated.id);
    for (const region of stated.regions) {
      expect(text).toContain(`${region.name as string} (${region.regionId})`);
      for (const field of FIELDS) expectFigureLine(text, region, field);
    }
    expect(text).toMatch(/Base: triangulated: triangulated between the ground around the toe/);
    expect(text).toMatch(/Base: fitted-plane: a plane fitted to the ground along the boundary/);
    const south = stated.regions.find((r) => r.regionId === 'pile-south')!;
    expect(text).toContain(`${(south.tonnage as number).toFixed(1)} t`);
    expect(text).toMatch(/Engine: builtin/);
    expect(text).toMatch(/Captured: \d{4}-\d{2}-\d{2}T/);
    expect(text).toMatch(/Photos: none: a point cloud uploaded as it was/);
    expect(text).toMatch(/Coordinate system: none stated by the file/);
    expect(text).toMatch(/Horizontal unit: not stated by the file, taken as metres/);
    expect(text).toMatch(/Vertical unit: not stated by the file, taken as metres/);
    expect(text).toContain('m³ (volumes), m² (footprints), t (tonnage)');
  });

  it('keeps a picture of the first page, with the site drawn on it', () => {
    const path = keepFirstPage(pdf, 'volume-report-two-piles');
    expect(existsSync(path)).toBe(true);
    const page = PNG.sync.read(readFileSync(path));
    // A4 at 72 dpi (595 × 842 pt), portrait.
    expect(Math.abs(page.width - 595)).toBeLessThanOrEqual(1);
    expect(Math.abs(page.height - 842)).toBeLessThanOrEqual(1);
    // The site picture is in colour: many pixels are neither white nor grey text.
    let coloured = 0;
    for (let i = 0; i < page.data.length; i += 4) {
      const [r, g, b] = [page.data[i]!, page.data[i + 1]!, page.data[i + 2]!];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 40) coloured++;
    }
    expect(coloured).toBeGreaterThan(20_000);
  });

  it('answers the same table as CSV, every figure with its unit and band', async () => {
    const fetched = await report(projectId, 'csv');
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = fetched.bytes
      .toString('utf8')
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    const column = (name: string) => header!.indexOf(name);
    for (const region of stated.regions) {
      for (const field of [...FIELDS, 'tonnage'] as const) {
        const value = region[field] as number | null;
        const row = rows.find(
          (r) => r[column('region_id')] === region.regionId && r[column('figure')] === field,
        );
        if (value === null) {
          expect(row).toBeUndefined();
          continue;
        }
        expect(row).toBeDefined();
        expect(Number(row![column('value')])).toBe(value);
        expect(row![column('unit')]).toBe((region.units as Record<string, string>)[field]);
        expect(Number(row![column('plus_minus')])).toBe(region.bands[field]!.plusMinus);
        expect(row![column('band_unit')]).toBe(row![column('unit')]);
        expect(Number(row![column('confidence')])).toBe(0.95);
        expect(row![column('quantities_id')]).toBe(stated.id);
      }
    }
    const total = rows.find((r) => r[column('region_id')] === 'site-total' && r[column('figure')] === 'net');
    expect(Number(total![column('value')])).toBe(stated.rollup.net);
  });

  it('answers the regions as GeoJSON: each stated toe in WGS 84 with its figures', async () => {
    const fetched = await report(projectId, 'geojson');
    const collection = JSON.parse(fetched.bytes.toString('utf8')) as Body & {
      features: (Body & { geometry: { type: string; coordinates: number[][][] }; properties: Body })[];
    };
    const toes = (await regionsOf(api, projectId)).regions as (Body & {
      id: string;
      polygon: { lat: number; lng: number }[];
    })[];
    expect(collection.features.map((f) => f.id)).toEqual(stated.regions.map((r) => r.regionId));
    for (const feature of collection.features) {
      const toe = toes.find((t) => t.id === feature.id)!;
      const ring = feature.geometry.coordinates[0]!;
      expect(feature.geometry.type).toBe('Polygon');
      expect(ring.slice(0, -1)).toEqual(toe.polygon.map((p) => [p.lng, p.lat]));
      expect(ring.at(-1)).toEqual(ring[0]);
      const region = stated.regions.find((r) => r.regionId === feature.id)!;
      for (const field of FIELDS)
        expect(feature.properties[field]).toEqual({
          value: region[field],
          unit: (region.units as Record<string, string>)[field],
          plusMinus: region.bands[field]!.plusMinus,
          relativeFraction: region.bands[field]!.relativeFraction,
          confidence: 0.95,
        });
    }
  });

  it('is linked from the client page, which serves the same report with its own token', async () => {
    const pages = (await api.get('/client-pages?kind=project')).body.items as (Body & {
      id: string;
      href: string;
    })[];
    const href = pages.find((p) => p.id === projectId)!.href;
    const html = await (await fetch(`${platform.url}${href}`)).text();
    const link = /<a class="report-link" data-format="pdf" href="([^"]+)"/.exec(html)?.[1];
    expect(link).toBeDefined();
    const res = await fetch(`${platform.url}${link!.replace(/&amp;/g, '&')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const text = pdfText(Buffer.from(await res.arrayBuffer()), 'client-page');
    for (const region of stated.regions) expectFigureLine(text, region, 'net');
    const forged = await fetch(`${platform.url}/client/v1/page/report.pdf?token=not-a-token`);
    expect(forged.status).toBe(404);
  });
});

describe('GET /projects/:id/quantities/report refusals', () => {
  it('is not_found for a project nothing has been measured on, saying so', async () => {
    const projectId = await captureProject(api, 'Unmeasured Yard');
    const fetched = await report(projectId);
    expect(fetched.status).toBe(404);
    expect(errorOf(fetched)).toMatchObject({
      code: 'not_found',
      error: expect.stringMatching(/Nothing has been measured/),
    });
  });

  it('is not_found for an unknown project and for one outside a project-scoped token', async () => {
    expect(errorOf(await report('prj_missing'))).toMatchObject({ code: 'not_found' });
    const elsewhere = await captureProject(api, 'Elsewhere Report Yard');
    const measured = await captureProject(api, 'Hidden Report Yard');
    const scoped = await platform.token(tenantId, { role: 'Manager', projectIds: [elsewhere] });
    const hidden = await report(measured, 'pdf', scoped.secret);
    expect(hidden.status).toBe(404);
  });

  it('refuses a token without deliverable read, and a request without a token', async () => {
    const projectId = await captureProject(api, 'Scoped Report Yard');
    const other = await platform.token(tenantId, { role: 'Manager', permissions: { lead: ['read'] } });
    const denied = await report(projectId, 'pdf', other.secret);
    expect(denied.status).toBe(403);
    expect(errorOf(denied)).toMatchObject({
      code: 'out_of_scope',
      required: { action: 'read', kind: 'deliverable' },
    });
    const res = await fetch(`${platform.url}/api/v1/projects/${projectId}/quantities/report`);
    expect(res.status).toBe(401);
  });

  it('refuses a format it does not make, naming the field', async () => {
    const projectId = await captureProject(api, 'Format Report Yard');
    const fetched = await report(projectId, 'docx');
    expect(fetched.status).toBe(400);
    expect(JSON.stringify(errorOf(fetched))).toContain('format');
  });
});
