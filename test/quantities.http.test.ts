// GET /projects/:id/quantities through HTTP (endpoint row 8). The snapshot is measured by the
// built-in engine on a synthetic stockpile and recorded over real gRPC, as the workers do; the
// reply must carry a band on every continuous figure and none on the tally.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AppError } from '@fieldops/kit';
import { startTestPlatform, type Body, type Client, type TestPlatform } from './support/harness.ts';
import { newCustomer, newProject } from './support/projects.ts';
import {
  coneVolume,
  conePly,
  measureCone,
  measurementsRpc,
  type MeasurementsRpc,
} from './support/measurements.ts';
import { finalizedPointCapture } from './support/capture.ts';

let platform: TestPlatform;
let api: Client;
let tenantId: string;
let customerId: string;
let rpc: MeasurementsRpc;

interface BandBody {
  unit: string;
  relativeFraction: number;
  plusMinus: number;
}
type Figures = Body & {
  cut: number;
  fill: number;
  net: number;
  footprint: number;
  tonnage: number | null;
  bands: Record<string, BandBody>;
};

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ api, tenantId } = await platform.tenant('Quarry Survey Co'));
  customerId = await newCustomer(api);
  rpc = measurementsRpc(platform);
});
afterAll(async () => {
  rpc.close();
  await platform.stop();
});

const quantitiesOf = (reply: { body: Body }) =>
  reply.body.quantities as Body & { regions: Figures[]; rollup: Figures; regionCount: number; runId: string };

describe('GET /projects/:id/quantities', () => {
  it('answers a band with unit and relativeFraction on every figure of each region and the rollup', async () => {
    const project = await newProject(api, customerId);
    await rpc.recordQuantities(
      { projectId: project.id, runId: 'run_a1', captureId: 'cap_a1', quantities: await measureCone(5) },
      tenantId,
    );
    const reply = await api.get(`/projects/${project.id}/quantities`);
    expect(reply.status).toBe(200);
    const q = quantitiesOf(reply);
    expect(q).toMatchObject({ projectId: project.id, runId: 'run_a1', captureId: 'cap_a1', regionCount: 1 });
    const units = { cut: 'm3', fill: 'm3', net: 'm3', footprint: 'm2', tonnage: 't' };
    for (const figures of [q.regions[0] as Figures, q.rollup]) {
      expect(Object.keys(figures.bands).sort()).toEqual(['cut', 'fill', 'footprint', 'net', 'tonnage']);
      for (const [field, unit] of Object.entries(units)) {
        expect(figures.bands[field]).toMatchObject({ unit, relativeFraction: expect.any(Number) });
        expect(figures.bands[field]?.relativeFraction).toBeGreaterThan(0);
      }
    }
    // The measured figure lies within its own band of the true volume, and the band is tight.
    const pile = q.regions[0] as Figures;
    expect(Math.abs(pile.net - coneVolume(5))).toBeLessThanOrEqual(pile.bands.net?.plusMinus ?? 0);
    expect(pile.bands.net?.relativeFraction).toBeLessThan(0.05);
    expect(pile.tonnage).toBeCloseTo(Math.abs(pile.net) * 1.7, 6);
    // A tally carries no band, anywhere.
    expect(JSON.stringify(reply.body)).not.toMatch(/regionCount"?:\s*\{/);
    expect(q.rollup.bands).not.toHaveProperty('regionCount');
    expect(q).not.toHaveProperty('bands');
    // The region's outline as measured: the drawn square, in metres, as a closed GeoJSON-like ring.
    expect(reply.body).toMatchObject({
      quantities: {
        regions: [
          {
            outline: {
              type: 'Polygon',
              coordinates: [
                [
                  [7, 7],
                  [33, 7],
                  [33, 33],
                  [7, 33],
                  [7, 7],
                ],
              ],
            },
          },
        ],
      },
    });
  });

  it('answers a snapshot recorded without outlines without one, and refuses an outline that is no polygon', async () => {
    const project = await newProject(api, customerId);
    const measured = await measureCone(5);
    const older = { ...measured, regions: measured.regions.map((r) => ({ ...r, outline: [] })) };
    await rpc.recordQuantities(
      { projectId: project.id, runId: 'run_o1', captureId: 'cap_o', quantities: older },
      tenantId,
    );
    const q = quantitiesOf(await api.get(`/projects/${project.id}/quantities`));
    expect(q.regions[0]).not.toHaveProperty('outline');
    const line = {
      ...measured,
      regions: measured.regions.map((r) => ({ ...r, outline: r.outline.slice(0, 2) })),
    };
    await expect(
      rpc.recordQuantities(
        { projectId: project.id, runId: 'run_o2', captureId: 'cap_o', quantities: line },
        tenantId,
      ),
    ).rejects.toMatchObject({ code: 'field_invalid' });
    expect(quantitiesOf(await api.get(`/projects/${project.id}/quantities`)).runId).toBe('run_o1');
  });

  it('answers the newest snapshot, and a retried worker run is recorded once', async () => {
    const project = await newProject(api, customerId);
    const first = await measureCone(4, 2);
    await rpc.recordQuantities(
      { projectId: project.id, runId: 'run_b1', captureId: 'cap_b', quantities: first },
      tenantId,
    );
    const again = await rpc.recordQuantities(
      { projectId: project.id, runId: 'run_b1', captureId: 'cap_b', quantities: first },
      tenantId,
    );
    expect(again.meta?.replayed).toBe(true);
    await rpc.recordQuantities(
      { projectId: project.id, runId: 'run_b2', captureId: 'cap_b2', quantities: await measureCone(6, 3) },
      tenantId,
    );
    const q = quantitiesOf(await api.get(`/projects/${project.id}/quantities`));
    expect(q.runId).toBe('run_b2');
    const pile = q.regions[0] as Figures;
    expect(Math.abs(pile.net - coneVolume(6))).toBeLessThanOrEqual(pile.bands.net?.plusMinus ?? 0);
  });

  it('records a run once when retried workers race', async () => {
    const project = await newProject(api, customerId);
    const quantities = await measureCone(5, 6);
    const writes = await Promise.all(
      [1, 2, 3].map(() =>
        rpc.recordQuantities(
          { projectId: project.id, runId: 'run_race', captureId: 'cap_r', quantities },
          tenantId,
        ),
      ),
    );
    expect(new Set(writes.map((w) => w.snapshot?.id)).size).toBe(1);
    expect(writes.filter((w) => w.meta?.created).length).toBe(1);
    const other = await newProject(api, customerId);
    await expect(
      rpc.recordQuantities(
        { projectId: other.id, runId: 'run_race', captureId: 'cap_r', quantities },
        tenantId,
      ),
    ).rejects.toMatchObject({ code: 'conflict' });
    await expect(
      rpc.recordQuantities({ projectId: 'prj_missing', runId: 'run_x', captureId: '', quantities }, tenantId),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses to record a figure without its band, and stores nothing', async () => {
    const project = await newProject(api, customerId);
    const quantities = await measureCone(5);
    const region = quantities.regions[0];
    if (!region?.figures) throw new Error('no figures');
    delete region.figures.bands['net'];
    await expect(
      rpc.recordQuantities({ projectId: project.id, runId: 'run_c1', captureId: '', quantities }, tenantId),
    ).rejects.toMatchObject({ code: 'field_invalid' } satisfies Partial<AppError>);
    expect((await api.get(`/projects/${project.id}/quantities`)).body.quantities).toMatchObject({
      measured: false,
    });
  });

  it('answers 200 with nothing measured for an existing project with no snapshot yet', async () => {
    const project = await newProject(api, customerId);
    const empty = await api.get(`/projects/${project.id}/quantities`);
    expect(empty.status).toBe(200);
    expect(empty.body.quantities).toMatchObject({
      projectId: project.id,
      measured: false,
      regions: [],
      regionCount: 0,
      rollup: { measured: false, cut: 0, fill: 0, net: 0, tonnage: null, bands: {} },
      disclosures: [expect.stringMatching(/Nothing has been measured/)],
    });
  });

  it('answers not_found for an unknown project and another tenant', async () => {
    const project = await newProject(api, customerId);
    expect((await api.get('/projects/prj_missing/quantities')).body.code).toBe('not_found');
    const other = await platform.tenant('Other Co');
    expect((await other.api.get(`/projects/${project.id}/quantities`)).status).toBe(404);
  });

  it('hides a project outside a project-scoped token and refuses a token without deliverable read', async () => {
    const measured = await newProject(api, customerId);
    await rpc.recordQuantities(
      { projectId: measured.id, runId: 'run_d1', captureId: '', quantities: await measureCone(3, 4) },
      tenantId,
    );
    const elsewhere = await newProject(api, customerId);
    const scoped = await platform.token(tenantId, { role: 'Manager', projectIds: [elsewhere.id] });
    expect((await scoped.api.get(`/projects/${measured.id}/quantities`)).status).toBe(404);
    const narrowed = await platform.token(tenantId, { role: 'Manager', permissions: { lead: ['read'] } });
    const denied = await narrowed.api.get(`/projects/${measured.id}/quantities`);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      code: 'out_of_scope',
      required: { action: 'read', kind: 'deliverable' },
    });
    expect(denied.headers.get('x-ratelimit-bucket')).toBe('reads');
  });

  it('measures a finalized capture from its stored files (MeasureCapture), once per run', async () => {
    const project = await newProject(api, customerId);
    const session = await finalizedPointCapture(api, project.id, conePly(5, 7));
    const files = session.frames.map((f) => ({ key: f.key, name: 'stockpile.ply' }));
    const request = {
      projectId: project.id,
      runId: `remeasure_${session.id}`,
      captureId: session.id,
      files,
      sensor: 'lidar',
      control: 'gcp',
      regions: [
        {
          id: 'pile-a',
          polygon: [
            { x: 7, y: 7 },
            { x: 33, y: 7 },
            { x: 33, y: 33 },
            { x: 7, y: 33 },
          ],
          material: 'gravel',
        },
      ],
    };
    const write = await rpc.measureCapture(request, tenantId);
    const pile = write.snapshot?.quantities?.regions[0]?.figures;
    expect(write.meta?.created).toBe(true);
    expect(Math.abs((pile?.net ?? NaN) - coneVolume(5))).toBeLessThanOrEqual(
      pile?.bands['net']?.plusMinus ?? 0,
    );
    expect(pile?.bands['tonnage']).toMatchObject({ unit: 't' });
    const again = await rpc.measureCapture(request, tenantId);
    expect(again.meta?.replayed).toBe(true);
    expect(again.snapshot?.id).toBe(write.snapshot?.id);

    await expect(
      rpc.measureCapture({ ...request, runId: 'r2', sensor: 'sonar' }, tenantId),
    ).rejects.toMatchObject({
      code: 'field_invalid_enum',
    });
    const far = {
      ...request,
      runId: 'r3',
      regions: [
        {
          id: 'far',
          polygon: [
            { x: 500, y: 500 },
            { x: 510, y: 500 },
            { x: 510, y: 510 },
          ],
        },
      ],
    };
    await expect(rpc.measureCapture(far, tenantId)).rejects.toMatchObject({ code: 'conflict' });
    const other = await platform.tenant('Key Thief Co');
    const theirs = (await newProject(other.api, await newCustomer(other.api))).id;
    await expect(
      rpc.measureCapture({ ...request, projectId: theirs, runId: 'r4' }, other.tenantId),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
