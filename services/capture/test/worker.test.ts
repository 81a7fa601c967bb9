// Reconstruction workers on the real embedded store, event log and blob store: N runs at a time,
// and a worker that dies mid-run has its run retried by another (attempt 2) with one scene per run.
// Both ways a worker reaches capture's runs: in-process (the platform) and over capture's gRPC
// server (a worker process, no store). The lease rule itself: contracts/run-leases.contract.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { openEmbeddedBlobStore, type BlobStore } from '@fieldops/kit/blobs';
import { openEmbeddedEventLog, topicOf, type EventLog } from '@fieldops/kit/events';
import { createLogger } from '@fieldops/kit';
import { openEmbeddedStore, type DocumentStore } from '@fieldops/kit/store';
import { defineCaptureCollections, RUNS, SCENES } from '../src/collections.ts';
import type { RunDoc } from '../src/run-model/run.model.ts';
import { storeRunLeases } from '../src/runs/run-leases.local.ts';
import { startCaptureServer } from '../src/server.ts';
import { builtinEngine } from '../src/worker/builtin.engine.ts';
import type { ReconstructionEngine } from '../src/worker/engine.port.ts';
import { startReconstructionWorker, type RunningWorker } from '../src/worker/reconstruction-worker.ts';
import { connectGrpcRunLeases } from '../src/worker/run-leases.grpc.ts';
import type { RunLeases } from '../src/worker/run-leases.port.ts';
import { metricsText } from '@fieldops/kit/metrics';
import { exportRunsWaiting } from '../src/runs/runs-waiting.metric.ts';
import { PLY, seedQueuedRun } from './support/queued-run.ts';

const TENANT = 'ten_worker';
const logger = createLogger('test', 'silent');

let dir: string;
let store: DocumentStore;
let log: EventLog;
let blobs: BlobStore;
const workers: RunningWorker[] = [];
const closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fieldops-worker-'));
  store = await openEmbeddedStore({ dir: join(dir, 'capture') });
  await defineCaptureCollections(store);
  log = await openEmbeddedEventLog({ dir: join(dir, 'events') });
  blobs = await openEmbeddedBlobStore({ dir: join(dir, 'blobs') });
});
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.crash();
  for (const close of closers.splice(0).reverse()) await close();
  await log.close();
  await blobs.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** How the workers of a test reach capture's runs. */
const ADAPTERS: Record<string, () => Promise<RunLeases>> = {
  'in-process': async () => storeRunLeases(store),
  // Capture's own gRPC server over the store; the workers dial it and never see the store.
  'over gRPC': async () => {
    const server = await startCaptureServer({ store, blobs, log, logger, projectsAddress: '127.0.0.1:1' });
    const leases = connectGrpcRunLeases(server.address);
    closers.push(
      async () => leases.close(),
      () => server.stop(),
    );
    return leases;
  },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A queued run with its frame stored and its job event published. */
async function queuedRun(): Promise<string> {
  const seeded = await seedQueuedRun(store, TENANT);
  await blobs.put(seeded.frameKey, PLY, { contentType: 'application/x-ply' });
  await log.ensureTopic(topicOf('capture'));
  await log.publish(topicOf('capture'), [
    {
      key: TENANT,
      value: { type: 'run.queued', tenantId: TENANT, resource: { kind: 'run', id: seeded.runId } },
    },
  ]);
  return seeded.runId;
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

/** Waits at a gate like gatedEngine, but stops when its run is aborted, as COLMAP is killed. */
function abortableEngine() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const state = { entered: 0, aborted: 0 };
  const engine: ReconstructionEngine = {
    name: 'builtin',
    async run(job, io) {
      state.entered++;
      // Listening before the phase is stored: a test that sees the phase may stop the worker at
      // once, before this run resumes from progress(), and an abort before the listener is lost.
      const aborted = new Promise<never>((_, reject) => {
        const abort = () => reject(io.signal.reason as Error);
        if (io.signal.aborted) abort();
        else io.signal.addEventListener('abort', abort, { once: true });
      });
      aborted.catch(() => undefined);
      await io.progress(0.5, 'waiting at the gate');
      try {
        await Promise.race([gate, aborted]);
      } catch (error) {
        state.aborted++;
        throw error;
      }
      return builtinEngine.run(job, io);
    },
  };
  return { engine, open: () => open(), state };
}

async function worker(
  leases: RunLeases,
  engine: ReconstructionEngine,
  id: string,
  concurrency = 2,
  drainMs?: number,
): Promise<RunningWorker> {
  const started = await startReconstructionWorker({
    leases,
    blobs,
    log,
    logger,
    engines: { builtin: engine },
    concurrency,
    leaseMs: 600,
    sweepMs: 100,
    id,
    ...(drainMs !== undefined ? { drainMs } : {}),
  });
  workers.push(started);
  return started;
}

describe.each(Object.keys(ADAPTERS))('reconstruction workers (%s)', (adapter) => {
  let leases: RunLeases;
  beforeEach(async () => {
    leases = await ADAPTERS[adapter]!();
  });

  it('run at most N runs at a time and finish them all', async () => {
    const gated = gatedEngine();
    await worker(leases, gated.engine, 'wrk_n', 2);
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

  it("spread one tenant's runs over every worker with a free slot, though one worker reads all its jobs", async () => {
    // A tenant's jobs share a partition, so one worker of the group reads all three.
    const gated = gatedEngine();
    for (const id of ['wrk_a', 'wrk_b', 'wrk_c']) await worker(leases, gated.engine, id, 1);
    const ids = [await queuedRun(), await queuedRun(), await queuedRun()];
    await until(async () => (gated.state.entered >= 3 ? true : undefined));
    expect(gated.state.maxActive).toBe(3);
    const holders = await Promise.all(ids.map(async (id) => (await readRun(id)).lease?.owner));
    expect(new Set(holders).size).toBe(3);
    gated.open();
    for (const id of ids)
      await until(async () => ((await readRun(id)).status === 'succeeded' ? true : undefined));
  });

  it('retry a run whose worker died mid-run, once, and record one scene', async () => {
    const stuck = gatedEngine();
    const first = await worker(leases, stuck.engine, 'wrk_dies');
    const id = await queuedRun();
    await until(async () => ((await readRun(id)).status === 'running' ? true : undefined));
    await first.crash();
    await worker(leases, builtinEngine, 'wrk_takes_over');
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

  it('hand a run back when stopped mid-run past the drain time: another worker finishes it at the same attempt', async () => {
    // A rollout: SIGTERM reaches a worker whose run will not end within its drain time.
    const stuck = abortableEngine();
    const stopping = await worker(leases, stuck.engine, 'wrk_rolled', 2, 0);
    const id = await queuedRun();
    await until(async () => ((await readRun(id)).phase === 'waiting at the gate' ? true : undefined));
    expect((await readRun(id)).attempts).toBe(1);
    await stopping.stop();
    expect(stuck.state.aborted).toBe(1); // the engine (COLMAP's subprocess) is stopped, not left running
    const handedBack = await readRun(id);
    expect(handedBack).toMatchObject({
      status: 'queued',
      attempts: 0,
      phase: 'handed back by a stopping worker',
    });
    expect(handedBack.lease).toBeUndefined();

    // The next worker takes it at once (no lease to wait out) and runs the same attempt number.
    await worker(leases, builtinEngine, 'wrk_next');
    const run = await until(async () => {
      const current = await readRun(id);
      return current.status === 'succeeded' ? current : undefined;
    });
    expect(run.attempts).toBe(1);
    expect(await store.find(SCENES, TENANT, { runId: id })).toHaveLength(1);
  });

  it('export the runs no worker holds as fieldops_capture_runs_waiting, which Kafka lag cannot show', async () => {
    const unexport = exportRunsWaiting(store);
    closers.push(async () => unexport());
    const waitingNow = async () => /^fieldops_capture_runs_waiting (\d+)$/m.exec(await metricsText())?.[1];
    const gated = abortableEngine();
    await worker(leases, gated.engine, 'wrk_one_slot', 1);
    const ids = [await queuedRun(), await queuedRun(), await queuedRun()];
    // All three jobs are consumed (their offsets committed); one is running, two wait for a slot.
    await until(async () =>
      (await readRun(ids[2]!)).status === 'queued' && gated.state.entered === 1 ? true : undefined,
    );
    await until(async () => ((await leases.listActive(10)).length === 3 ? true : undefined));
    expect(await waitingNow()).toBe('2');
    gated.open();
    for (const id of ids)
      await until(async () => ((await readRun(id)).status === 'succeeded' ? true : undefined));
    expect(await waitingNow()).toBe('0');
  });

  it('let a run finish when it ends within the drain time, and take no new job meanwhile', async () => {
    const gated = abortableEngine();
    const stopping = await worker(leases, gated.engine, 'wrk_drains', 2, 60_000);
    const id = await queuedRun();
    await until(async () => ((await readRun(id)).phase === 'waiting at the gate' ? true : undefined));
    const stopped = stopping.stop();
    const waiting = await queuedRun(); // published after SIGTERM: not this worker's any more
    gated.open();
    await stopped;
    expect(gated.state.aborted).toBe(0);
    expect(await readRun(id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(await readRun(waiting)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(gated.state.entered).toBe(1);
  });
});
