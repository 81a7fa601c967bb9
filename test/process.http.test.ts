// POST /projects/:id/process and the run poll target (rows 36, 73): the newest capture on the
// project's persisted mode and engine, explicit choices persisted, infeasible choices refused
// before anything is queued, never two runs in flight for one capture, the compute budget spent,
// and the in-process reconstruction workers taking runs to succeeded (or failed) with progress.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, startTestPlatform, type TestPlatform } from './support/harness.ts';
import { describeInProcess, suiteTenant } from './support/suite-tenant.ts';
import {
  captureProject,
  finalizedPointCapture,
  plyCloud,
  pointFrame,
  presign,
  put,
  type RunBody,
  type SessionBody,
} from './support/capture.ts';
import { coneVolume } from './support/measurements.ts';
import { cone, onPlane, plyBinary, scatter } from '@fieldops/measure-engine/testing';

const { api } = await suiteTenant('Process Co');

const runOf = (reply: { body: Record<string, unknown> }) => reply.body.run as RunBody;

async function settled(projectId: string, runId: string): Promise<RunBody> {
  return eventually(async () => {
    const run = runOf(await api.get(`/projects/${projectId}/runs/${runId}`));
    return run.status === 'succeeded' || run.status === 'failed' ? run : undefined;
  }, 15_000);
}

describe('reconstruction of a finalized capture', () => {
  it('runs the run finalize queued to succeeded, with a scene and full progress', async () => {
    const projectId = await captureProject(api, 'Worker Site');
    const capture = await finalizedPointCapture(api, projectId);
    const run = await settled(projectId, capture.runId);
    expect(run).toMatchObject({
      status: 'succeeded',
      progress: 1,
      attempts: 1,
      captureId: capture.id,
      error: '',
    });
    expect(run.sceneId).toMatch(/^scn_/);
    expect(run.finishedAt).not.toBe('');
    // Mode volumes: the built-in engine measured the capture and the measurements service holds it.
    const quantities = await api.get(`/projects/${projectId}/quantities`);
    expect(quantities.status).toBe(200);
    expect(quantities.body.quantities).toMatchObject({
      runId: capture.runId,
      captureId: capture.id,
      regionCount: 1,
    });
    const rollup = (
      quantities.body.quantities as { rollup: { fill: number; bands: Record<string, unknown> } }
    ).rollup;
    expect(rollup.bands).toHaveProperty('fill');
  });

  it('measures every point-cloud tile of a capture as one site', async () => {
    // One scan of a 10 m cone split at x = 20 into two tiles: each holds half the pile.
    const cloud = scatter(onPlane(cone(20, 20, 10, 5), 50, 0.02, -0.01), {
      size: 40,
      density: 12,
      sigma: 0.02,
      seed: 3,
    });
    const tile = (west: boolean) => {
      const keep = [...cloud.x.keys()].filter((k) => cloud.x[k]! < 20 === west);
      const pick = (axis: Float64Array) => Float64Array.from(keep, (k) => axis[k]!);
      return Buffer.from(plyBinary({ x: pick(cloud.x), y: pick(cloud.y), z: pick(cloud.z) }));
    };
    const tiles = [tile(true), tile(false)];
    const projectId = await captureProject(api, 'Tiled Site');
    const { session, uploads } = await presign(api, projectId, {
      frames: tiles.map((bytes, n) => pointFrame(bytes.length, `tile-${n + 1}.ply`)),
    });
    for (const [n, bytes] of tiles.entries()) expect((await put(uploads[n]!, bytes)).status).toBe(200);
    const finalized = (await api.post(`/projects/${projectId}/capture/${session.id}/finalize`)).body
      .session as SessionBody;
    expect((await settled(projectId, finalized.runId)).status).toBe('succeeded');
    const reply = await api.get(`/projects/${projectId}/quantities`);
    expect(reply.status).toBe(200);
    const rollup = (
      reply.body.quantities as { rollup: { net: number; bands: { net: { plusMinus: number } } } }
    ).rollup;
    // Half the pile would be about 262 m³; both tiles together hold the whole 524 m³ cone.
    expect(Math.abs(rollup.net - coneVolume(5))).toBeLessThanOrEqual(rollup.bands.net.plusMinus);
  });

  it('measures no quantities in mode surface', async () => {
    const projectId = await captureProject(api, 'Surface Site');
    const { session, uploads } = await presign(api, projectId, {
      frames: [pointFrame(plyCloud().length)],
      mode: 'surface',
    });
    await put(uploads[0]!, plyCloud());
    const finalized = (await api.post(`/projects/${projectId}/capture/${session.id}/finalize`)).body
      .session as SessionBody;
    expect((await settled(projectId, finalized.runId)).status).toBe('succeeded');
    const quantities = await api.get(`/projects/${projectId}/quantities`);
    expect([quantities.status, quantities.body.quantities]).toEqual([
      200,
      expect.objectContaining({ measured: false, regionCount: 0 }),
    ]);
  });

  it('fails a run whose file is not a point cloud, saying why, on the poll target', async () => {
    const projectId = await captureProject(api, 'Bad File Site');
    const { session, uploads } = await presign(api, projectId, { frames: [pointFrame(5, 'junk.ply')] });
    await put(uploads[0]!, 'hello');
    const finalized = (await api.post(`/projects/${projectId}/capture/${session.id}/finalize`)).body
      .session as SessionBody;
    const run = await settled(projectId, finalized.runId);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/junk\.ply/);
  });
});

describe('POST /projects/:id/process', () => {
  let projectId: string;
  let newest: SessionBody;

  beforeAll(async () => {
    projectId = await captureProject(api, 'Process Site');
    const older = await finalizedPointCapture(api, projectId);
    await settled(projectId, older.runId);
    newest = await finalizedPointCapture(api, projectId);
    await settled(projectId, newest.runId);
  });

  it('with no body reprocesses the newest capture on the default mode and engine', async () => {
    const reply = await api.post(`/projects/${projectId}/process`);
    expect(reply.status).toBe(201);
    expect(runOf(reply)).toMatchObject({
      captureId: newest.id,
      status: 'queued',
      trigger: 'process',
      engine: 'builtin',
      mode: 'volumes',
    });
    expect((await settled(projectId, runOf(reply).id)).status).toBe('succeeded');
  });

  it('never has two runs of one capture in flight at once, under concurrent calls', async () => {
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => api.post(`/projects/${projectId}/process`)),
    );
    const created = replies.filter((reply) => reply.status === 201).map(runOf);
    const refused = replies.filter((reply) => reply.status === 409);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.length + refused.length).toBe(5);
    for (const reply of refused)
      expect(reply.body).toMatchObject({ code: 'conflict', status: expect.any(String) });
    const runs = (await Promise.all(created.map((run) => settled(projectId, run.id)))).sort((a, b) =>
      a.createdAt < b.createdAt ? -1 : 1,
    );
    // A second run may only have been queued after the one before it finished.
    for (let i = 1; i < runs.length; i++) expect(runs[i - 1]!.finishedAt <= runs[i]!.createdAt).toBe(true);
  });

  it('persists an explicit mode on the project for the next bare call', async () => {
    const explicit = await api.post(`/projects/${projectId}/process`, {
      mode: 'surface',
      sceneTag: 'week 12',
    });
    expect(runOf(explicit)).toMatchObject({ mode: 'surface', sceneTag: 'week 12' });
    await settled(projectId, runOf(explicit).id);
    const bare = await api.post(`/projects/${projectId}/process`);
    expect(runOf(bare).mode).toBe('surface');
    await settled(projectId, runOf(bare).id);
  });

  it('refuses an infeasible engine or mode before anything is queued or persisted', async () => {
    const engine = await api.post(`/projects/${projectId}/process`, { engine: 'nodeodm', mode: 'volumes' });
    expect(engine.status).toBe(400);
    expect(engine.body).toMatchObject({ code: 'field_invalid', field: 'engine' });
    const mode = await api.post(`/projects/${projectId}/process`, { mode: 'orthomosaic' });
    expect(mode.body).toMatchObject({ code: 'field_invalid', field: 'mode' });
    // The refused choices were not persisted: a bare call still uses builtin and surface.
    const bare = await api.post(`/projects/${projectId}/process`);
    expect(runOf(bare)).toMatchObject({ engine: 'builtin', mode: 'surface', status: 'queued' });
    await settled(projectId, runOf(bare).id);
  });

  it('processes a named capture, and refuses unknown or unfinished ones', async () => {
    const named = await api.post(`/projects/${projectId}/process`, { captureId: newest.id, quality: 'high' });
    expect(runOf(named)).toMatchObject({ captureId: newest.id, quality: 'high' });
    await settled(projectId, runOf(named).id);
    expect((await api.post(`/projects/${projectId}/process`, { captureId: 'cap_missing' })).status).toBe(404);
    const { session } = await presign(api, projectId, { frames: [pointFrame(5)] });
    const unfinished = await api.post(`/projects/${projectId}/process`, { captureId: session.id });
    expect([unfinished.status, unfinished.body.code]).toEqual([409, 'conflict']);
  });

  it('refuses bad input with the spec codes', async () => {
    const cases: [unknown, string][] = [
      [{ quality: 'ultra' }, 'field_invalid_enum'],
      [{ engine: 'magic' }, 'field_invalid_enum'],
      [{ structureSpanM: -3 }, 'field_invalid'],
      [{ colour: 'red' }, 'unknown_field'],
      ['[1]', 'invalid_body'],
    ];
    for (const [body, code] of cases) {
      expect((await api.post(`/projects/${projectId}/process`, body)).body.code).toBe(code);
    }
    expect((await api.post('/projects/prj_missing/process')).status).toBe(404);
  });

  it('rehearses with the dry-run header without queueing', async () => {
    const reply = await api.post(`/projects/${projectId}/process`, {}, { 'x-service-dry-run': '1' });
    expect(reply.body).toMatchObject({ dryRun: true, applied: false });
    expect((await api.get(`/projects/${projectId}/runs/${runOf(reply).id}`)).status).toBe(404);
  });

  it('is 409 on a project with no finalized capture, and the run poll target is 404 elsewhere', async () => {
    const empty = await captureProject(api, 'Empty Site');
    const reply = await api.post(`/projects/${empty}/process`);
    expect([reply.status, reply.body.code]).toEqual([409, 'conflict']);
    expect((await api.get(`/projects/${empty}/runs/${newest.runId}`)).status).toBe(404);
  });
});

describeInProcess('a capture already in flight', () => {
  let idle: TestPlatform;

  beforeAll(async () => {
    // No in-process workers: runs stay queued, so "in flight" lasts as long as the test needs.
    process.env['FIELDOPS_CAPTURE_WORKERS'] = '0';
    idle = await startTestPlatform();
  });
  afterAll(async () => {
    delete process.env['FIELDOPS_CAPTURE_WORKERS'];
    await idle.stop();
  });

  it('is never started twice, even by concurrent calls', async () => {
    const { api: client } = await idle.tenant('Idle Co');
    const projectId = await captureProject(client, 'Idle Site');
    const capture = await finalizedPointCapture(client, projectId);
    // finalize queued the first run: process is refused, naming it.
    const first = await client.post(`/projects/${projectId}/process`);
    expect(first.body).toMatchObject({ code: 'conflict', runId: capture.runId, status: 'queued' });

    const second = await finalizedPointCapture(client, projectId);
    const replies = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.post(`/projects/${projectId}/process`, { captureId: second.id }),
      ),
    );
    // The second capture's finalize run is in flight too: all five are refused, none queued.
    expect(replies.map((reply) => reply.status)).toEqual([409, 409, 409, 409, 409]);
    for (const reply of replies) expect(reply.body.runId).toBe(second.runId);
  });
});

describeInProcess('the compute budget', () => {
  let budgeted: TestPlatform;

  beforeAll(async () => {
    budgeted = await startTestPlatform({ FIELDOPS_BUDGET_COMPUTE: '1' });
  });
  afterAll(() => budgeted.stop());

  it('spends one compute run per process call and answers 429 naming compute once spent', async () => {
    const { api: client } = await budgeted.tenant('Budget Co');
    const projectId = await captureProject(client, 'Budget Site');
    const capture = await finalizedPointCapture(client, projectId);
    await eventually(async () => {
      const run = runOf(await client.get(`/projects/${projectId}/runs/${capture.runId}`));
      return run.status === 'succeeded' ? run : undefined;
    }, 15_000);
    expect((await client.post(`/projects/${projectId}/process`)).status).toBe(201);
    const spent = await client.post(`/projects/${projectId}/process`);
    expect([spent.status, spent.body.code, spent.body.budget]).toEqual([429, 'rate_limited', 'compute']);
  });
});
