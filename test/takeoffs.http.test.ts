// GET /projects/:id/takeoffs, /takeoffs/:takeoffId and /takeoffs/:takeoffId/delta through HTTP
// (endpoint rows 26–28). Revisions are saved over real gRPC from snapshots the engine measured:
// captured lines carry their band, drawn lines carry null (never zero), every total reports its
// provenance mix, and the delta places each change against the band of the difference.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type Body, type Client, type TestPlatform } from './support/harness.ts';
import { newCustomer, newProject } from './support/projects.ts';
import { measureCone, measurementsRpc, type MeasurementsRpc } from './support/measurements.ts';

let platform: TestPlatform;
let api: Client;
let tenantId: string;
let customerId: string;
let rpc: MeasurementsRpc;

/** A project with two revisions: the pile grew from 4 m to 6 m high; a drawn line changed slightly. */
let projectId: string;
let first: string;
let second: string;

interface BandBody {
  unit: string;
  relativeFraction: number;
  plusMinus: number;
}
type Line = Body & { key: string; quantity: number; unit: string; band: BandBody | null; provenance: string };
type Total = Body & {
  costCode: string;
  unit: string;
  band: BandBody | null;
  mixed: boolean;
  provenance: Body;
};
type Takeoff = Body & {
  id: string;
  revision: number;
  lines: Line[];
  rollup: Total[];
  mixed: boolean;
  disclosures: string[];
};

async function saveRevision(height: number, seed: number, drawnM3: number, extra = false): Promise<string> {
  const snapshot = await rpc.recordQuantities(
    {
      projectId,
      runId: `run_${seed}`,
      captureId: `cap_${seed}`,
      quantities: await measureCone(height, seed),
    },
    tenantId,
  );
  const write = await rpc.recordTakeoff(
    {
      projectId,
      quantitiesId: snapshot.snapshot?.id ?? '',
      captured: [
        { regionId: 'pile-a', field: 'net', costCode: '31-23-16', description: 'Stockpile A, net volume' },
        { regionId: 'pile-a', field: 'tonnage', costCode: '31-23-16', description: 'Stockpile A, gravel' },
      ],
      drawn: [
        {
          key: 'trench',
          description: 'Drainage trench (from drawings)',
          costCode: '31-23-16',
          quantity: drawnM3,
          unit: 'm3',
        },
        ...(extra
          ? [{ key: 'haul', description: 'Haul road', costCode: '32-11', quantity: 120, unit: 'm2' }]
          : []),
        ...(extra
          ? []
          : [{ key: 'fence', description: 'Silt fence', costCode: '31-25', quantity: 80, unit: 'm' }]),
      ],
      scope: 'Stockpile A and the drainage trench, north yard',
      assumptions: ['Gravel at 1.7 t/m³ loose'],
      disclosures: [],
    },
    tenantId,
  );
  return write.takeoff?.id ?? '';
}

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ api, tenantId } = await platform.tenant('Takeoff Co'));
  customerId = await newCustomer(api);
  rpc = measurementsRpc(platform);
  projectId = (await newProject(api, customerId)).id;
  first = await saveRevision(4, 21, 40);
  second = await saveRevision(6, 22, 40.5, true);
});
afterAll(async () => {
  rpc.close();
  await platform.stop();
});

describe('GET /projects/:id/takeoffs/:takeoffId', () => {
  it('answers the lines in SI, captured ones banded and drawn ones with a null band', async () => {
    const reply = await api.get(`/projects/${projectId}/takeoffs/${first}`);
    expect(reply.status).toBe(200);
    const takeoff = reply.body.takeoff as Takeoff;
    expect(takeoff).toMatchObject({
      id: first,
      revision: 1,
      scope: 'Stockpile A and the drainage trench, north yard',
    });
    expect(takeoff.assumptions).toEqual(['Gravel at 1.7 t/m³ loose']);
    const byKey = Object.fromEntries(takeoff.lines.map((l) => [l.key, l]));
    expect(byKey['pile-a:net']).toMatchObject({ unit: 'm3', provenance: 'captured', band: { unit: 'm3' } });
    expect(byKey['pile-a:tonnage']).toMatchObject({ unit: 't', band: { unit: 't' } });
    expect(byKey['pile-a:net']?.band?.relativeFraction).toBeGreaterThan(0);
    expect(byKey['trench']).toMatchObject({ unit: 'm3', provenance: 'drawn', quantity: 40 });
    expect(byKey['trench']).toHaveProperty('band', null);
    expect(takeoff.disclosures.join(' ')).toMatch(/carry no band/);
  });

  it('rolls up by cost code with the provenance mix on every total; a mixed total has no band', async () => {
    const takeoff = (await api.get(`/projects/${projectId}/takeoffs/${first}`)).body.takeoff as Takeoff;
    const total = (code: string, unit: string) =>
      takeoff.rollup.find((t) => t.costCode === code && t.unit === unit);
    expect(total('31-23-16', 'm3')).toMatchObject({
      mixed: true,
      band: null,
      provenance: { captured: 1, drawn: 1 },
    });
    expect(total('31-23-16', 't')).toMatchObject({
      mixed: false,
      provenance: { captured: 1, drawn: 0 },
      band: { unit: 't' },
    });
    expect(total('31-25', 'm')).toMatchObject({
      mixed: false,
      band: null,
      provenance: { captured: 0, drawn: 1 },
    });
    for (const t of takeoff.rollup) expect(t).toHaveProperty('mixed');
    expect(takeoff.mixed).toBe(true);
  });

  it('answers not_found for an unknown takeoff, one of another project and an unknown project', async () => {
    expect((await api.get(`/projects/${projectId}/takeoffs/tko_missing`)).body.code).toBe('not_found');
    const other = await newProject(api, customerId);
    expect((await api.get(`/projects/${other.id}/takeoffs/${first}`)).status).toBe(404);
    expect((await api.get(`/projects/prj_missing/takeoffs/${first}`)).status).toBe(404);
  });
});

describe('GET /projects/:id/takeoffs', () => {
  it('lists revisions newest first with rollup and provenance mix, without their lines, page by page', async () => {
    const reply = await api.get(`/projects/${projectId}/takeoffs?limit=1`);
    expect(reply.status).toBe(200);
    const items = reply.body.items as Takeoff[];
    expect(items.map((t) => t.revision)).toEqual([2]);
    expect(items[0]).not.toHaveProperty('lines');
    expect(items[0]?.rollup.length).toBeGreaterThan(0);
    expect(items[0]).toMatchObject({ provenance: { captured: 2, drawn: 2 }, mixed: true });
    const next = await api.get(
      `/projects/${projectId}/takeoffs?limit=1&cursor=${String(reply.body.nextCursor)}`,
    );
    expect((next.body.items as Takeoff[]).map((t) => t.id)).toEqual([first]);
    expect(next.body.nextCursor).toBeNull();
  });

  it('lists nothing for a project without takeoffs, clamps limit, and hides unknown projects', async () => {
    const empty = await newProject(api, customerId);
    const reply = await api.get(`/projects/${empty.id}/takeoffs?limit=500`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ items: [], nextCursor: null, limit: 100, limitClamped: true });
    expect((await api.get('/projects/prj_missing/takeoffs')).body.code).toBe('not_found');
  });

  it('refuses a token without deliverable read', async () => {
    const narrowed = await platform.token(tenantId, { role: 'Manager', permissions: { lead: ['read'] } });
    const reply = await narrowed.api.get(`/projects/${projectId}/takeoffs`);
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({
      code: 'out_of_scope',
      required: { action: 'read', kind: 'deliverable' },
    });
  });
});

describe('GET /projects/:id/takeoffs/:takeoffId/delta', () => {
  type Change = Body & { key: string; difference: number; band: BandBody | null; side: string };
  type Delta = Body & {
    added: Line[];
    removed: Line[];
    changed: Change[];
    unchanged: number;
    rollup: Change[];
  };

  it('lists added, removed and changed lines, each change placed against its band', async () => {
    const reply = await api.get(`/projects/${projectId}/takeoffs/${second}/delta?from=${first}`);
    expect(reply.status).toBe(200);
    const delta = reply.body.delta as Delta;
    expect(delta).toMatchObject({ fromId: first, toId: second, fromRevision: 1, toRevision: 2 });
    expect(delta.added.map((l) => l.key)).toEqual(['haul']);
    expect(delta.removed.map((l) => l.key)).toEqual(['fence']);
    const change = (key: string) => delta.changed.find((c) => c.key === key);
    // The pile grew from about 419 m³ to 628 m³: far outside the band of the difference.
    expect(change('pile-a:net')).toMatchObject({ side: 'above', band: { unit: 'm3' } });
    expect(change('pile-a:net')?.difference).toBeGreaterThan(150);
    expect(change('pile-a:tonnage')).toMatchObject({ side: 'above', band: { unit: 't' } });
    // A drawn line has no band, so its change cannot be placed.
    expect(change('trench')).toMatchObject({ difference: 0.5, band: null, side: 'unknown' });
  });

  it('reads the other direction as below', async () => {
    const delta = (await api.get(`/projects/${projectId}/takeoffs/${first}/delta?from=${second}`)).body
      .delta as Delta;
    expect(delta.changed.find((c) => c.key === 'pile-a:net')?.side).toBe('below');
  });

  it('needs from, and answers not_found for an unknown revision on either side', async () => {
    const missing = await api.get(`/projects/${projectId}/takeoffs/${second}/delta`);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'field_required' });
    expect((await api.get(`/projects/${projectId}/takeoffs/${second}/delta?from=tko_missing`)).status).toBe(
      404,
    );
    expect((await api.get(`/projects/${projectId}/takeoffs/tko_missing/delta?from=${first}`)).status).toBe(
      404,
    );
  });
});

describe('RecordTakeoff (the gRPC write behind the reads)', () => {
  const base = { quantitiesId: '', captured: [], scope: '', assumptions: [], disclosures: [] };
  const drawnLine = (key: string, unit = 'm3') => ({
    key,
    description: key,
    costCode: '01',
    quantity: 1,
    unit,
  });

  it('numbers racing saves 1, 2, 3 without a gap or a repeat', async () => {
    const project = await newProject(api, customerId);
    const saves = await Promise.all(
      [1, 2, 3].map((k) =>
        rpc.recordTakeoff({ ...base, projectId: project.id, drawn: [drawnLine(`line-${k}`)] }, tenantId),
      ),
    );
    expect(saves.map((s) => s.takeoff?.revision).sort()).toEqual([1, 2, 3]);
    const listed = (await api.get(`/projects/${project.id}/takeoffs`)).body.items as Takeoff[];
    expect(listed.map((t) => t.revision)).toEqual([3, 2, 1]);
  });

  it('refuses bad lines with the spec code naming the field, and saves nothing', async () => {
    const project = await newProject(api, customerId);
    const refusal = (request: Partial<Parameters<MeasurementsRpc['recordTakeoff']>[0]>) =>
      rpc.recordTakeoff({ ...base, projectId: project.id, drawn: [], ...request }, tenantId);
    await expect(refusal({ drawn: [drawnLine('a', 'ft3')] })).rejects.toMatchObject({
      code: 'field_invalid_enum',
    });
    await expect(refusal({ drawn: [{ ...drawnLine('a'), costCode: ' ' }] })).rejects.toMatchObject({
      code: 'field_required',
    });
    await expect(refusal({ drawn: [drawnLine('a'), drawnLine('a')] })).rejects.toMatchObject({
      code: 'field_invalid',
    });
    await expect(refusal({ drawn: [] })).rejects.toMatchObject({ code: 'field_required' });
    await expect(
      refusal({
        quantitiesId: 'qty_missing',
        captured: [{ regionId: 'pile-a', field: 'net', costCode: '01', description: '' }],
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const snapshot = (await api.get(`/projects/${projectId}/takeoffs/${first}`)).body.takeoff as Takeoff;
    const otherProjects = snapshot.quantitiesId as string;
    await expect(
      refusal({
        quantitiesId: otherProjects,
        captured: [{ regionId: 'pile-a', field: 'net', costCode: '01', description: '' }],
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      rpc.recordTakeoff({ ...base, projectId: 'prj_missing', drawn: [drawnLine('a')] }, tenantId),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect((await api.get(`/projects/${project.id}/takeoffs`)).body.items).toEqual([]);
  });

  it('refuses a captured line for a field the region does not have', async () => {
    const snapshot = (await api.get(`/projects/${projectId}/takeoffs/${first}`)).body.takeoff as Takeoff;
    const quantitiesId = snapshot.quantitiesId as string;
    const captured = (field: string, regionId = 'pile-a') => [
      { regionId, field, costCode: '01', description: '' },
    ];
    await expect(
      rpc.recordTakeoff(
        { ...base, projectId, quantitiesId, drawn: [], captured: captured('volume') },
        tenantId,
      ),
    ).rejects.toMatchObject({ code: 'field_invalid_enum' });
    await expect(
      rpc.recordTakeoff(
        { ...base, projectId, quantitiesId, drawn: [], captured: captured('net', 'pile-z') },
        tenantId,
      ),
    ).rejects.toMatchObject({ code: 'field_invalid' });
  });
});
