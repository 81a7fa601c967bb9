// Regions a customer states, through HTTP: GET/PUT /projects/:id/regions and POST
// /projects/:id/quantities/remeasure on a generated site with two piles of known volume, trees and
// a building (@fieldops/survey-fixtures/site). The site's cloud is uploaded as a capture and
// processed by the built-in engine (the fast path: a reconstruction's stored cloud, in the same
// east-north-up frame the COLMAP engine writes). With no regions the answer and the client page
// disclose the automatic whole-capture region; stated regions measure each pile within its band;
// changing a region measures the stored cloud again without a new run or scene.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { REGION_FIELD_LIMITS } from '@fieldops/contracts';
import { enuFrame, utmCloudFrame } from '@fieldops/measure-engine';
import { las } from '@fieldops/measure-engine/testing';
import {
  groundElevationUnder,
  SITE_ORIGIN,
  SITE_PILES,
  SITE_TRUE_VOLUMES_M3,
  siteCloudPly,
  siteCloudPoints,
  toeAround,
} from '@fieldops/survey-fixtures/site';
import { captureProject, finalizedPointCapture, type RunBody } from './support/capture.ts';
import { eventually, type Body, type Client } from './support/harness.ts';
import {
  expectWithinBand,
  pile,
  quantitiesOf as quantitiesOfProject,
  regionsOf as regionsOfProject,
  stateAndRemeasure,
  twoPiles,
  type QuantitiesBody,
  type RegionSetBody,
} from './support/site-regions.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const { platform, api, tenantId } = await suiteTenant('Aggregates Survey Co');
const cloud = siteCloudPly();

/** A project with the site's capture processed; answers its id and the run that measured it. */
async function processedSite(
  name: string,
  client: Client = api,
): Promise<{ projectId: string; runId: string }> {
  const projectId = await captureProject(client, name);
  const runId = await processCloud(projectId);
  return { projectId, runId };
}

/** The site as OpenDroneMap writes its clouds: LAS in metres, WGS 84 / UTM zone 30N (EPSG 32630). */
function siteCloudUtmLas(): Buffer {
  const enu = enuFrame(SITE_ORIGIN);
  const utm = utmCloudFrame(32630)!;
  const { x, y, z } = siteCloudPoints();
  const projected = {
    x: new Float64Array(x.length),
    y: new Float64Array(x.length),
    z: new Float64Array(x.length),
  };
  for (let k = 0; k < x.length; k++) {
    const g = enu.toGeodetic([x[k]!, y[k]!, z[k]!]);
    [projected.x[k], projected.y[k], projected.z[k]] = utm.place(g.lat, g.lon, g.alt);
  }
  return Buffer.from(las(projected, { linearUnitEpsg: 9001, projectedCrsEpsg: 32630 }));
}

async function processCloud(projectId: string, bytes: Buffer = cloud, name = 'scan.ply'): Promise<string> {
  const contentType = name.endsWith('.las') ? 'application/vnd.las' : 'application/x-ply';
  const session = await finalizedPointCapture(api, projectId, bytes, {
    name,
    contentType,
    size: bytes.length,
  });
  await eventually(async () => {
    const run = (await api.get(`/projects/${projectId}/runs/${session.runId}`)).body.run as RunBody;
    if (run.status === 'failed') throw new Error(`run failed: ${run.error}`);
    return run.status === 'succeeded' ? run : undefined;
  }, 60_000);
  // The worker records the quantities before it completes the run.
  return session.runId;
}

const quantitiesOf = (projectId: string) => quantitiesOfProject(api, projectId);
const regionsOf = (projectId: string) => regionsOfProject(api, projectId);

/** The toe with two neighbouring positions swapped: its edges cross. */
const bowTie = (polygon: { lat: number; lng: number }[]) => [polygon[1]!, polygon[0]!, ...polygon.slice(2)];

const scenesOf = async (projectId: string) =>
  (await api.get(`/projects/${projectId}/scenes`)).body.items as Body[];

describe('stated regions on a site with two piles, trees and a building', () => {
  let site: { projectId: string; runId: string };
  beforeAll(async () => {
    site = await processedSite('Two Piles Yard');
  });

  it('with no regions stated, discloses the automatic whole-capture region in the answer and on the client page', async () => {
    const q = await quantitiesOf(site.projectId);
    expect(q).toMatchObject({ runId: site.runId, basis: 'automatic-whole-capture', regionVersion: 0 });
    expect(q.regions.map((r) => r.regionId)).toEqual(['site']);
    expect(q.disclosures[0]).toMatch(/whole capture .* not a stated stockpile/);
    // Trees and the roof are in it: far more than both piles.
    expect(q.rollup.net).toBeGreaterThan(1.5 * (SITE_TRUE_VOLUMES_M3.north + SITE_TRUE_VOLUMES_M3.south));
    const pages = (await api.get('/client-pages?kind=project')).body.items as (Body & {
      id: string;
      href: string;
    })[];
    const href = pages.find((p) => p.id === site.projectId)?.href as string;
    const html = await (await fetch(`${platform.url}${href}`)).text();
    expect(html).toContain('data-basis="automatic-whole-capture"');
    expect(html).toContain('Whole capture, not a stated stockpile.');
    const regions = await regionsOf(site.projectId);
    expect(regions).toMatchObject({ version: 0, regions: [], statedAt: '' });
  });

  it('states two regions, measures each pile within its band, and re-measures a changed region without reconstructing', async () => {
    const read = await api.get(`/projects/${site.projectId}/regions`);
    const stated = await api.put(
      `/projects/${site.projectId}/regions`,
      { regions: twoPiles() },
      { 'If-Match': read.headers.get('etag') as string },
    );
    expect(stated.status).toBe(200);
    const v1 = stated.body.regionSet as RegionSetBody;
    expect(v1).toMatchObject({ version: 1, regions: [{ id: 'pile-north' }, { id: 'pile-south' }] });

    const first = await api.post(`/projects/${site.projectId}/quantities/remeasure`);
    expect(first.status).toBe(201);
    const q1 = first.body.quantities as QuantitiesBody;
    expect(q1).toMatchObject({ runId: site.runId, basis: 'stated-regions', regionVersion: 1 });
    expect(q1.disclosures.join(' ')).not.toMatch(/not a stated stockpile/);
    expectWithinBand(pile(q1, 'pile-north'), SITE_TRUE_VOLUMES_M3.north);
    expectWithinBand(pile(q1, 'pile-south'), SITE_TRUE_VOLUMES_M3.south);
    expect(pile(q1, 'pile-north').base.kind).toBe('triangulated');
    expect(pile(q1, 'pile-north').tonnage).toBeCloseTo(pile(q1, 'pile-north').net * 1.7, 6);
    expect(pile(q1, 'pile-south').tonnage).toBeCloseTo(pile(q1, 'pile-south').net * 1.45, 6);
    expect(await quantitiesOf(site.projectId)).toMatchObject({ id: q1.id, regionVersion: 1 });

    // The south toe redrawn wider and triangulated, and the same toe against a fixed level at the
    // ground's height: version 2, measured again.
    const south = { base: 'triangulated', polygon: toeAround(SITE_PILES.south, 5, 16) };
    const level = {
      id: 'south-level',
      name: 'South pile to pad level',
      polygon: south.polygon,
      base: 'elevation',
      baseElevationM: groundElevationUnder(SITE_PILES.south),
    };
    const changed = await api.put(
      `/projects/${site.projectId}/regions`,
      { regions: [...twoPiles(south), level] },
      { 'If-Match': v1.etag },
    );
    expect(changed.status).toBe(200);
    expect((changed.body.regionSet as RegionSetBody).version).toBe(2);
    const again = await api.post(`/projects/${site.projectId}/quantities/remeasure`);
    expect(again.status).toBe(201);
    const q2 = again.body.quantities as QuantitiesBody;
    expect(q2).toMatchObject({ runId: site.runId, regionVersion: 2, basis: 'stated-regions' });
    expect(q2.id).not.toBe(q1.id);
    expect(pile(q2, 'pile-south').base.kind).toBe('triangulated');
    expectWithinBand(pile(q2, 'pile-south'), SITE_TRUE_VOLUMES_M3.south);
    // A fixed level is placed by the photos' GPS: its band carries that datum error (metres), honestly wide.
    const toLevel = pile(q2, 'south-level');
    expect(toLevel.base.kind).toBe('elevation');
    expect(Math.abs(toLevel.net - SITE_TRUE_VOLUMES_M3.south)).toBeLessThanOrEqual(
      toLevel.bands.net!.plusMinus,
    );
    expect(toLevel.bands.net!.plusMinus).toBeGreaterThan(pile(q2, 'pile-south').bands.net!.plusMinus);
    // The unchanged region is measured again too (on a grid laid over the new set of regions).
    expectWithinBand(pile(q2, 'pile-north'), SITE_TRUE_VOLUMES_M3.north);

    // The version each snapshot names can be read back; only the newest carries an etag.
    const older = await api.get(`/projects/${site.projectId}/regions?version=${q1.regionVersion}`);
    expect(older.body.regionSet).toMatchObject({ version: 1, etag: '', regions: v1.regions });
    expect(older.headers.get('etag')).toBeNull();
    expect((await api.get(`/projects/${site.projectId}/regions?version=9`)).status).toBe(404);
    expect((await api.get(`/projects/${site.projectId}/regions?version=0`)).body.code).toBe('field_invalid');

    // No reconstruction: still the one run's one scene, and the run is the one that measured first.
    expect(await scenesOf(site.projectId)).toHaveLength(1);
    const run = (await api.get(`/projects/${site.projectId}/runs/${site.runId}`)).body.run as RunBody;
    expect(run.attempts).toBe(1);

    // The same run and version again is the snapshot held, not a second measurement.
    const held = await api.post(`/projects/${site.projectId}/quantities/remeasure`);
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({ replayed: true, quantities: { id: q2.id } });
  });

  it('measures stated regions on a LAS in a WGS 84 / UTM zone, as OpenDroneMap writes it', async () => {
    const projectId = await captureProject(api, 'UTM Yard');
    const runId = await processCloud(projectId, siteCloudUtmLas(), 'odm_georeferenced_model.las');
    const { quantities: q } = await stateAndRemeasure(api, projectId, twoPiles());
    expect(q).toMatchObject({ runId, basis: 'stated-regions', regionVersion: 1 });
    expectWithinBand(pile(q, 'pile-north'), SITE_TRUE_VOLUMES_M3.north);
    expectWithinBand(pile(q, 'pile-south'), SITE_TRUE_VOLUMES_M3.south);
  });

  it('measures a newly processed capture with the regions stated before it', async () => {
    const projectId = await captureProject(api, 'Stated First Yard');
    const read = await api.get(`/projects/${projectId}/regions`);
    const lowest = twoPiles({ base: 'lowest-point' });
    expect(
      (
        await api.put(
          `/projects/${projectId}/regions`,
          { regions: lowest },
          { 'If-Match': read.headers.get('etag') as string },
        )
      ).status,
    ).toBe(200);
    const runId = await processCloud(projectId);
    const q = await eventually(async () => {
      const found = await quantitiesOf(projectId);
      return found.runId === runId ? found : undefined;
    }, 15_000);
    expect(q).toMatchObject({ basis: 'stated-regions', regionVersion: 1 });
    expectWithinBand(pile(q, 'pile-north'), SITE_TRUE_VOLUMES_M3.north);
    // The lowest point of a toe on sloping ground lies below most of the pile's foot: more volume.
    expect(pile(q, 'pile-south').base.kind).toBe('lowest-point');
    expect(pile(q, 'pile-south').net).toBeGreaterThan(SITE_TRUE_VOLUMES_M3.south);
  });
});

describe('PUT /projects/:id/regions refusals', () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = await captureProject(api, 'Refusal Yard');
  });

  it('needs If-Match (428), and refuses a stale one with the current set attached (409)', async () => {
    const missing = await api.put(`/projects/${projectId}/regions`, { regions: twoPiles() });
    expect(missing.status).toBe(428);
    const etag = (await api.get(`/projects/${projectId}/regions`)).headers.get('etag') as string;
    expect(
      (await api.put(`/projects/${projectId}/regions`, { regions: twoPiles() }, { 'If-Match': etag })).status,
    ).toBe(200);
    const stale = await api.put(`/projects/${projectId}/regions`, { regions: [] }, { 'If-Match': etag });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'conflict', current: { version: 1 } });
    expect((await regionsOf(projectId)).regions).toHaveLength(2);
  });

  it('refuses invalid regions with the spec code naming the field, and stores nothing', async () => {
    const before = await regionsOf(projectId);
    const put = (regions: unknown) =>
      api.put(`/projects/${projectId}/regions`, { regions }, { 'If-Match': '*' });
    const [north] = twoPiles();
    const cases: [unknown, string][] = [
      [[{ ...north, polygon: north!.polygon.slice(0, 2) }], 'field_invalid'],
      [[{ ...north, base: 'cone' }], 'field_invalid_enum'],
      [[{ ...north, material: 'unobtainium' }], 'field_invalid_enum'],
      [[{ ...north, densityTPerM3: -1 }], 'field_invalid'],
      [[{ ...north, polygon: [{ lat: 91, lng: 0 }, ...north!.polygon] }], 'field_invalid'],
      [[{ ...north, polygon: bowTie(north!.polygon) }], 'field_invalid'],
      [[{ ...north, base: 'elevation' }], 'field_required'],
      [[{ ...north, baseElevationM: 10 }], 'field_invalid'],
      [[north, north], 'field_invalid'],
      [[{ ...north, colour: 'red' }], 'unknown_field'],
    ];
    for (const [regions, code] of cases) {
      const reply = await put(regions);
      expect([reply.status, reply.body.code, JSON.stringify(regions).slice(0, 80)]).toEqual([
        400,
        code,
        JSON.stringify(regions).slice(0, 80),
      ]);
    }
    expect(await regionsOf(projectId)).toEqual(before);
  });

  it('rehearses a dry run without stating, and replays an idempotency key', async () => {
    const before = await regionsOf(projectId);
    const dry = await api.put(
      `/projects/${projectId}/regions`,
      { regions: twoPiles().slice(0, 1) },
      { 'If-Match': before.etag, 'x-service-dry-run': '1' },
    );
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      applied: false,
      willDo: expect.stringMatching(/version 2/),
    });
    expect(await regionsOf(projectId)).toEqual(before);

    const headers = { 'If-Match': before.etag, 'Idempotency-Key': `regions-${projectId}` };
    const first = await api.put(
      `/projects/${projectId}/regions`,
      { regions: twoPiles().slice(0, 1) },
      headers,
    );
    expect(first.status).toBe(200);
    const replay = await api.put(
      `/projects/${projectId}/regions`,
      { regions: twoPiles().slice(0, 1) },
      headers,
    );
    expect(replay.body).toMatchObject({
      replayed: true,
      regionSet: { version: (first.body.regionSet as RegionSetBody).version },
    });
    expect((await regionsOf(projectId)).version).toBe(before.version + 1);
  });

  it('refuses a token without deliverable update, and hides a project outside a project-scoped token', async () => {
    const reader = await platform.token(tenantId, {
      role: 'Manager',
      permissions: { deliverable: ['read'] },
    });
    const denied = await reader.api.put(
      `/projects/${projectId}/regions`,
      { regions: [] },
      { 'If-Match': '*' },
    );
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      code: 'out_of_scope',
      required: { action: 'update', kind: 'deliverable' },
    });
    expect((await reader.api.get(`/projects/${projectId}/regions`)).status).toBe(200);
    const remeasure = await reader.api.post(`/projects/${projectId}/quantities/remeasure`);
    expect(remeasure.body).toMatchObject({
      code: 'out_of_scope',
      required: { action: 'create', kind: 'deliverable' },
    });
    const elsewhere = await captureProject(api, 'Elsewhere Yard');
    const scoped = await platform.token(tenantId, { role: 'Manager', projectIds: [elsewhere] });
    expect((await scoped.api.get(`/projects/${projectId}/regions`)).status).toBe(404);
    expect((await api.get('/projects/prj_missing/regions')).status).toBe(404);
  });
});

/**
 * A circle of `count` positions, `radiusM` around (1°, 1°), rounded to 5 decimals (about 1 m) so
 * 16 regions at the vertex cap fit the 1 MiB body limit; 2 km circles keep the rounding far below
 * the spacing of the positions.
 */
const circle = (radiusM: number, count: number) =>
  Array.from({ length: count }, (_, k) => {
    const angle = (2 * Math.PI * k) / count;
    const round = (degrees: number) => Math.round(degrees * 1e5) / 1e5;
    return {
      lat: round(1 + (radiusM * Math.sin(angle)) / 111_320),
      lng: round(1 + (radiusM * Math.cos(angle)) / 111_303),
    };
  });

const { vertices: VERTEX_CAP, setVertices: SET_CAP } = REGION_FIELD_LIMITS;
const sixteenAtTheCap = () =>
  Array.from({ length: SET_CAP / VERTEX_CAP }, (_, k) => ({
    id: `ring-${k}`,
    name: `Ring ${k}`,
    polygon: circle(2_000 + 50 * k, VERTEX_CAP),
    base: 'fitted-plane',
    material: 'gravel',
  }));

describe('PUT /projects/:id/regions: the cost is bounded before it is paid', () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = await captureProject(api, 'Ring Yard');
  });
  const put = (regions: unknown, headers: Record<string, string> = {}) =>
    api.put(`/projects/${projectId}/regions`, { regions }, { 'If-Match': '*', ...headers });

  it('accepts 16 regions at the vertex cap, each checked for crossings', async () => {
    const regions = sixteenAtTheCap();
    expect(regions.reduce((sum, r) => sum + r.polygon.length, 0)).toBe(SET_CAP);
    const stated = await put(regions);
    expect([stated.status, stated.body.code]).toEqual([200, undefined]);
    expect((stated.body.regionSet as RegionSetBody).regions).toHaveLength(16);
    // Checked, not waved through: the same set with one ring crossing itself is refused, and a
    // dry run checks the same (it is charged the same compute, test/token-caps.http.test.ts).
    const crossed = sixteenAtTheCap();
    const ring = crossed[9]!.polygon;
    // Positions half a ring apart swapped: two chords across the ring, crossing each other.
    [ring[500], ring[1500]] = [ring[1500]!, ring[500]!];
    const refused = await put(crossed, { 'x-service-dry-run': '1' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'field_invalid', field: 'regions[9].polygon' });
    expect(refused.body.error).toMatch(/edges \d+ and \d+ cross/);
  }, 120_000);

  it('refuses a region over the vertex cap and a set over the set cap, naming the field, dry run too', async () => {
    const before = await regionsOf(projectId);
    const overOne = [{ ...sixteenAtTheCap()[0]!, polygon: circle(2_000, VERTEX_CAP + 1) }];
    const overSet = [
      ...sixteenAtTheCap(),
      { id: 'one-more', name: 'One more', polygon: circle(500, 3), base: 'fitted-plane', material: 'gravel' },
    ];
    for (const headers of [{}, { 'x-service-dry-run': '1' }] as Record<string, string>[]) {
      const one = await put(overOne, headers);
      expect(one.status).toBe(400);
      expect(one.body).toMatchObject({ code: 'field_invalid', field: 'regions.0.polygon' });
      expect(one.body.error).toMatch(`at most ${VERTEX_CAP}`);
      const set = await put(overSet, headers);
      expect(set.status).toBe(400);
      expect(set.body).toMatchObject({ code: 'field_invalid', field: 'regions' });
      expect(set.body.error).toMatch(
        `the regions hold ${SET_CAP + 3} positions in all; at most ${SET_CAP} in one version`,
      );
    }
    expect(await regionsOf(projectId)).toEqual(before);
  }, 120_000);
});

describe('POST /projects/:id/quantities/remeasure refusals', () => {
  it('is a conflict with no regions stated, or nothing measured yet, and rehearses a dry run', async () => {
    const site = await processedSite('Unstated Yard');
    const none = await api.post(`/projects/${site.projectId}/quantities/remeasure`);
    expect(none.status).toBe(409);
    expect(none.body.error).toMatch(/no stated regions/);

    const bare = await captureProject(api, 'Bare Yard');
    await api.put(`/projects/${bare}/regions`, { regions: twoPiles() }, { 'If-Match': '*' });
    const nothing = await api.post(`/projects/${bare}/quantities/remeasure`);
    expect(nothing.status).toBe(409);
    expect(nothing.body.error).toMatch(/Nothing has been measured/);

    await api.put(`/projects/${site.projectId}/regions`, { regions: twoPiles() }, { 'If-Match': '*' });
    const before = await quantitiesOf(site.projectId);
    const dry = await api.post(`/projects/${site.projectId}/quantities/remeasure`, undefined, {
      'x-service-dry-run': '1',
    });
    expect(dry.body).toMatchObject({
      dryRun: true,
      applied: false,
      willDo: expect.stringMatching(/no reconstruction/),
    });
    expect((await quantitiesOf(site.projectId)).id).toBe(before.id);
  });

  it('refuses regions outside the capture with a sentence saying so, and keeps the snapshot', async () => {
    const site = await processedSite('Far Toe Yard');
    const far = twoPiles().map((r) => ({
      ...r,
      polygon: r.polygon.map(({ lat, lng }) => ({ lat: lat + 0.01, lng })),
    }));
    await api.put(`/projects/${site.projectId}/regions`, { regions: far }, { 'If-Match': '*' });
    const before = await quantitiesOf(site.projectId);
    const reply = await api.post(`/projects/${site.projectId}/quantities/remeasure`);
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatch(/falls inside the regions/);
    expect((await quantitiesOf(site.projectId)).id).toBe(before.id);

    // A capture processed under such regions keeps its automatic measurement, saying why.
    const runId = await processCloud(site.projectId);
    const q = await eventually(async () => {
      const found = await quantitiesOf(site.projectId);
      return found.runId === runId ? found : undefined;
    }, 15_000);
    expect(q).toMatchObject({ basis: 'automatic-whole-capture', regionVersion: 0 });
    expect(q.disclosures.join(' ')).toMatch(
      /The stated regions \(version 1\) could not be measured on this capture: None of the/,
    );
  });
});
