// Reconstruction workers on the real embedded store, event log and blob store: N runs at a time,
// a worker that dies mid-run has its run retried by another (attempt 2), and a stale worker can
// never complete a run it lost: one scene per run, whatever happens.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { openEmbeddedBlobStore } from '@fieldops/kit/blobs/embedded';
import { blobKey } from '@fieldops/kit/blobs/key';
import type { BlobStore } from '@fieldops/kit/blobs/port';
import { openEmbeddedEventLog } from '@fieldops/kit/events/embedded';
import { topicOf } from '@fieldops/kit/events/envelope';
import type { EventLog } from '@fieldops/kit/events/port';
import { newId, nowIso } from '@fieldops/kit/ids';
import { createLogger } from '@fieldops/kit/log';
import { openEmbeddedStore } from '@fieldops/kit/store/embedded';
import type { DocumentStore } from '@fieldops/kit/store/port';
import { CAPTURE_SESSIONS, defineCaptureCollections, RUNS, SCENES } from '../src/collections.js';
import type { RunDoc } from '../src/runs/run.model.js';
import type { CaptureSessionDoc } from '../src/sessions/session.model.js';
import { builtinEngine } from '../src/worker/builtin.engine.js';
import type { ReconstructionEngine } from '../src/worker/engine.port.js';
import { startReconstructionWorker, type RunningWorker } from '../src/worker/reconstruction-worker.js';
import { claimRun, completeRun } from '../src/worker/run-lease.js';

const TENANT = 'ten_worker';
const logger = createLogger('test', 'silent');

let dir: string;
let store: DocumentStore;
let log: EventLog;
let blobs: BlobStore;
const workers: RunningWorker[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fieldops-worker-'));
  store = await openEmbeddedStore({ dir: join(dir, 'capture') });
  await defineCaptureCollections(store);
  log = await openEmbeddedEventLog({ dir: join(dir, 'events') });
  blobs = await openEmbeddedBlobStore({ dir: join(dir, 'blobs') });
});
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.crash();
  await log.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ply = Buffer.from(
  'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n1 0 0\n0 1 2\n',
);

/**
 * A finalized capture with one stored PLY file and a queued run, its job event published. Mode
 * surface: three points make a scene but span no area to measure volumes on (test/process.http.test.ts
 * covers volumes end to end).
 */
async function queuedRun(): Promise<string> {
  const captureId = newId('cap');
  const key = blobKey(TENANT, 'captures', captureId, 'frames', '00001.ply');
  await blobs.put(key, ply, { contentType: 'application/x-ply' });
  const now = nowIso();
  const session: CaptureSessionDoc = {
    id: captureId,
    tenantId: TENANT,
    version: 1,
    projectId: 'prj_1',
    status: 'finalized',
    source: 'scanner',
    device: '',
    capturedBy: '',
    mode: 'surface',
    engine: 'builtin',
    quality: 'standard',
    frames: [
      {
        index: 0,
        name: 'scan.ply',
        contentType: 'application/x-ply',
        declaredSize: ply.length,
        key,
        storedSize: ply.length,
      },
    ],
    declaredBytes: ply.length,
    storedBytes: ply.length,
    createdAt: now,
    updatedAt: now,
  };
  const run: RunDoc = {
    id: newId('run'),
    tenantId: TENANT,
    version: 1,
    projectId: 'prj_1',
    captureId,
    status: 'queued',
    inFlightCaptureId: captureId,
    trigger: 'finalize',
    mode: 'surface',
    engine: 'builtin',
    quality: 'standard',
    attempts: 0,
    maxAttempts: 3,
    progress: 0,
    phase: 'queued',
    createdAt: now,
    updatedAt: now,
    tenantCurrency: 'USD',
    tenantDefaultVertical: 'survey',
  };
  await store.commit(TENANT, [
    { op: 'insert', collection: CAPTURE_SESSIONS, doc: session },
    { op: 'insert', collection: RUNS, doc: run },
  ]);
  await log.ensureTopic(topicOf('capture'));
  await log.publish(topicOf('capture'), [
    { key: TENANT, value: { type: 'run.queued', tenantId: TENANT, resource: { kind: 'run', id: run.id } } },
  ]);
  return run.id;
}

const readRun = async (id: string) => (await store.get<RunDoc>(RUNS, TENANT, id))!;

async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** The built-in engine behind a gate the test opens; counts how many runs are inside at once. */
function gatedEngine() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const state = { active: 0, maxActive: 0, entered: 0 };
  const engine: ReconstructionEngine = {
    name: 'builtin',
    async run(job, io) {
      state.active++;
      state.entered++;
      state.maxActive = Math.max(state.maxActive, state.active);
      try {
        await io.progress(0.5, 'waiting at the gate');
        await gate;
        return await builtinEngine.run(job, io);
      } finally {
        state.active--;
      }
    },
  };
  return { engine, open: () => open(), state };
}

async function worker(engine: ReconstructionEngine, id: string, concurrency = 2): Promise<RunningWorker> {
  const started = await startReconstructionWorker({
    store,
    blobs,
    log,
    logger,
    engines: { builtin: engine },
    concurrency,
    leaseMs: 600,
    sweepMs: 100,
    id,
  });
  workers.push(started);
  return started;
}

describe('reconstruction workers', () => {
  it('run at most N runs at a time and finish them all', async () => {
    const gated = gatedEngine();
    await worker(gated.engine, 'wrk_n', 2);
    const ids = [await queuedRun(), await queuedRun(), await queuedRun(), await queuedRun()];
    await until(async () => (gated.state.entered >= 2 ? true : undefined));
    await sleep(300);
    expect(gated.state.maxActive).toBe(2);
    expect((await readRun(ids[0]!)).phase).toBe('waiting at the gate');
    gated.open();
    for (const id of ids) {
      const run = await until(async () => {
        const current = await readRun(id);
        return current.status === 'succeeded' ? current : undefined;
      });
      expect(run).toMatchObject({ attempts: 1, progress: 1 });
      expect(run.inFlightCaptureId).toBeUndefined();
    }
    expect(gated.state.maxActive).toBe(2);
  });

  it('retry a run whose worker died mid-run, once, and record one scene', async () => {
    const stuck = gatedEngine();
    const first = await worker(stuck.engine, 'wrk_dies');
    const id = await queuedRun();
    await until(async () => ((await readRun(id)).status === 'running' ? true : undefined));
    await first.crash();
    await worker(builtinEngine, 'wrk_takes_over');
    const run = await until(async () => {
      const current = await readRun(id);
      return current.status === 'succeeded' ? current : undefined;
    });
    expect(run.attempts).toBe(2);
    // The dead worker's engine finishing late changes nothing.
    stuck.open();
    await sleep(200);
    const scenes = await store.find(SCENES, TENANT, { runId: id });
    expect(scenes).toHaveLength(1);
    expect((await readRun(id)).sceneId).toBe(scenes[0]!.id);
  });

  it('refuse the completion of a worker that lost its lease', async () => {
    const id = await queuedRun();
    const a = await claimRun(store, TENANT, id, 'wrk_a', 50);
    if (!('claimed' in a)) throw new Error('first claim failed');
    expect(await claimRun(store, TENANT, id, 'wrk_b', 50)).toEqual({ skipped: 'held' });
    await sleep(80);
    const b = await claimRun(store, TENANT, id, 'wrk_b', 5000);
    if (!('claimed' in b)) throw new Error('takeover failed');
    expect(b.claimed.attempts).toBe(2);
    const result = {
      scene: { kind: 'point-cloud' as const, pointCount: 3, formats: ['ply'] },
      artifacts: [],
    };
    expect(await completeRun(store, a.claimed, result)).toBe(false);
    expect(await completeRun(store, b.claimed, result)).toBe(true);
    expect(await store.find(SCENES, TENANT, { runId: id })).toHaveLength(1);
    expect(await claimRun(store, TENANT, id, 'wrk_c', 50)).toEqual({ skipped: 'done' });
  });

  it('give a run up after its attempts are spent, saying so on the run', async () => {
    const id = await queuedRun();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const claim = await claimRun(store, TENANT, id, `wrk_${attempt}`, 1);
      expect('claimed' in claim).toBe(true);
      await sleep(5);
    }
    expect(await claimRun(store, TENANT, id, 'wrk_4', 1)).toEqual({ skipped: 'exhausted' });
    const run = await readRun(id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/started 3 times/);
    expect(run.inFlightCaptureId).toBeUndefined();
  });
});
