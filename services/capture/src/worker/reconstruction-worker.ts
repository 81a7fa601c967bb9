// A reconstruction worker: consumes `run.queued` jobs from capture's event topic (one consumer
// group for every worker, so a job goes to one of them), runs up to N at a time, and reports
// progress on the run (the run poll target). A job is first tracked in capture's list of active
// runs, and its offset committed; from then on the run is every worker's: the one that read it
// claims it if it has a free slot, and otherwise the first worker with a free slot does (each
// sweeps the list, oldest first, and at once when one of its runs ends). A tenant's jobs share a
// partition, so waiting there for a slot would hold its later jobs, untracked, on one worker
// while others idle. Once claimed, the lease on the run carries it: a worker that dies mid-run stops renewing
// its lease, and any worker's sweep takes the run over as its next attempt. The dead worker's
// late writes are refused (each is applied at the run version it last held), so a run is
// completed once in effect. A worker told to stop (SIGTERM) is not a dead one: it claims nothing
// more, lets its runs finish for drainMs, then kills their engines and hands them back without
// spending their attempts, so a rollout costs a run its progress, never one of its attempts. The worker holds no store: it works on runs through the RunLeases
// port, in capture's process or over capture's RunLeaseService from a process of its own.
import { CAPTURE_ENGINES, type CaptureEngine } from '@fieldops/contracts';
import { blobKey, type BlobStore } from '@fieldops/kit/blobs';
import {
  followFromStart,
  topicOf,
  type DomainEvent,
  type EventLog,
  type Subscription,
} from '@fieldops/kit/events';
import { newId, type Logger } from '@fieldops/kit';
import { CAPTURE_SERVICE } from '../events.ts';
import { isPointCloud } from '../session-model/manifest.ts';
import {
  PermanentEngineFailure,
  type EngineJob,
  type ReconstructionEngine,
  type SceneArtifact,
} from './engine.port.ts';
import type { QuantitiesPort } from './quantities.port.ts';
import type { ClaimedRun, HeldRun, RunLeases } from './run-leases.port.ts';
import { Slots } from './slots.ts';
import { workerContext } from './worker-context.ts';

export const WORKER_GROUP = 'capture-reconstruction';

export interface WorkerOptions {
  /** Capture's runs: storeRunLeases in capture's process, connectGrpcRunLeases elsewhere. */
  leases: RunLeases;
  blobs: BlobStore;
  log: EventLog;
  logger: Logger;
  engines: Partial<Record<CaptureEngine, ReconstructionEngine>>;
  /** Runs at a time in this process. */
  concurrency?: number;
  /** How long a lease lasts without renewal; a dead worker's run waits this long to be retried. */
  leaseMs?: number;
  /** How often the worker looks for runs whose lease expired. */
  sweepMs?: number;
  /** Identifies this worker in leases and logs. */
  id?: string;
  /** Where measured quantities are recorded (the measurements service). */
  quantities?: QuantitiesPort;
  /**
   * How long stop() lets the runs in hand finish before handing them back unfinished (their
   * engines killed, their leases released without spending the attempt). The pod's grace period
   * is this plus a margin (charts/fieldops, docs/deploy.md).
   */
  drainMs?: number;
}

export interface RunningWorker {
  readonly id: string;
  /**
   * Stops taking jobs, lets the runs in hand finish for up to drainMs, then hands the rest back
   * (graceful shutdown: SIGTERM).
   */
  stop(): Promise<void>;
  /** Stops at once without finishing or releasing anything, as a crash would (tests). */
  crash(): Promise<void>;
}

export const DEFAULT_LEASE_MS = 30_000;
export const DEFAULT_CONCURRENCY = 2;
export const DEFAULT_DRAIN_MS = 20_000;
/** How long a hand-back may take once the engines are told to stop: killing them, one RPC. */
export const HAND_BACK_MS = 5_000;

/** The abort reason of a run handed back by a stopping worker: not a failure of the run. */
class HandBack extends Error {
  constructor() {
    super('The worker is stopping; the run is handed back to another worker.');
  }
}
export async function startReconstructionWorker(options: WorkerOptions): Promise<RunningWorker> {
  const id = options.id ?? newId('wrk');
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const slots = new Slots(options.concurrency ?? DEFAULT_CONCURRENCY);
  const inHand = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const logger = options.logger.child({ worker: id });
  let stopping = false;
  let crashed = false;

  async function execute(run: ClaimedRun, controller: AbortController): Promise<void> {
    let held: HeldRun | null = run.held;
    let lastWrite = 0;
    // Renew the lease even while the engine is busy without reporting.
    const heartbeat = setInterval(() => void renew(), Math.max(50, Math.floor(leaseMs / 3)));
    async function renew(progress?: { fraction: number; phase: string }): Promise<void> {
      if (!held || crashed) return;
      const current: HeldRun = held;
      held = null; // one write at a time; progress in between is dropped, not queued
      // Unreachable capture: keep the hold and try again at the next beat, before the lease ends.
      const next = await options.leases.renew(current, leaseMs, progress).catch(() => current);
      if (next === null) {
        controller.abort(new Error('The run was taken over by another worker.'));
        return;
      }
      held = next;
      lastWrite = Date.now();
    }
    try {
      const engine = options.engines[run.engine as CaptureEngine];
      if (!engine)
        throw new PermanentEngineFailure(`No ${run.engine} engine is configured on this platform.`);
      const job = jobOf(run);
      const result = await engine.run(job, {
        blobs: options.blobs,
        signal: controller.signal,
        logger: logger.child({ runId: run.held.runId, attempt: run.attempts }),
        progress: async (fraction, phase) => {
          if (Date.now() - lastWrite >= 100) await renew({ fraction, phase });
        },
      });
      if (result.quantities && options.quantities && !crashed && !controller.signal.aborted) {
        // Before the run completes: a worker dying in between re-records, which the measurements
        // service answers with the snapshot it already holds for this run.
        await options.quantities.record(
          {
            projectId: run.projectId,
            runId: run.held.runId,
            captureId: run.captureId,
            quantities: result.quantities,
            files: storedClouds(result.artifacts),
          },
          workerContext(runTenant(run), 'recordQuantities'),
        );
      }
      await waitForWrite(() => held, controller.signal);
      const { scene, artifacts, reconstruction } = result;
      const outcome = { scene, artifacts, ...(reconstruction ? { reconstruction } : {}) };
      if (crashed || !held || !(await options.leases.complete(held, outcome))) {
        logger.warn({ runId: run.held.runId }, 'run finished after its lease was lost; result discarded');
      } else {
        // The other half of 'run claimed': which process completed which run, at which attempt.
        logger.info({ runId: run.held.runId, attempt: run.attempts }, 'run finished');
      }
    } catch (error) {
      if (crashed) return;
      clearInterval(heartbeat); // no renewal may race the hand-back's write
      if (controller.signal.reason instanceof HandBack) await handBack(run, () => held);
      else await settleFailure(run, held, error);
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function settleFailure(run: ClaimedRun, held: HeldRun | null, error: unknown): Promise<void> {
    if (!held) return; // lost the lease: the run is someone else's now
    if (error instanceof PermanentEngineFailure || run.attempts >= run.maxAttempts) {
      // Unreachable capture: the lease runs out and the next claim fails or retries the run.
      await options.leases
        .fail(held, (error as Error).message)
        .catch((cause: unknown) => logger.warn({ runId: held.runId, err: cause }, 'could not fail the run'));
      return;
    }
    logger.warn({ runId: held.runId, err: error }, 'run failed; released for a retry');
    await options.leases.release(held).catch(() => undefined);
  }

  /** Releases a run unfinished without spending its attempt, once no lease write is in flight. */
  async function handBack(run: ClaimedRun, current: () => HeldRun | null): Promise<void> {
    await waitForWrite(current, new AbortController().signal);
    const held = current();
    if (!held) return; // lost the lease meanwhile: the run is someone else's now
    const given = await options.leases.handBack(held).catch((cause: unknown) => {
      logger.warn({ runId: held.runId, err: cause }, 'could not hand the run back; its lease will run out');
      return false;
    });
    if (given) logger.info({ runId: held.runId, attempt: run.attempts }, 'run handed back');
  }

  /** Claims and starts a run if a slot is free; a run left unclaimed waits in the active list. */
  async function take(tenantId: string, runId: string): Promise<void> {
    if (inHand.has(runId) || stopping) return;
    if (!slots.tryAcquire()) return;
    try {
      // A run that is over leaves capture's active list there (claim, complete and fail see to it).
      const outcome = await options.leases.claim(tenantId, runId, id, leaseMs);
      if (!('claimed' in outcome)) {
        slots.release();
        return;
      }
      // Which process holds which run, and at which attempt: what an operator (and the worker-kill
      // test) reads to see a run taken over.
      logger.info({ runId, attempt: outcome.claimed.attempts, pid: process.pid }, 'run claimed');
      const controller = new AbortController();
      const done = execute(outcome.claimed, controller).finally(() => {
        inHand.delete(runId);
        if (crashed) return;
        slots.release();
        sweepSoon(); // the freed slot takes the oldest waiting run now, not at the next sweep
      });
      inHand.set(runId, { controller, done });
    } catch (error) {
      slots.release();
      throw error;
    }
  }

  async function sweep(): Promise<void> {
    const active = await options.leases.listActive(100);
    for (const entry of active) {
      if (stopping) return;
      if (inHand.has(entry.runId)) continue;
      await take(entry.tenantId, entry.runId);
    }
  }

  let sweeping: Promise<void> | null = null;
  let sweepAgain = false;
  /** Sweeps now, or right after the sweep in progress (a slot freed during it is not left idle). */
  function sweepSoon(): void {
    if (stopping) return;
    if (sweeping) {
      sweepAgain = true;
      return;
    }
    sweepAgain = false;
    sweeping = sweep()
      .catch((error: unknown) => logger.warn({ err: error }, 'sweep failed'))
      .finally(() => {
        sweeping = null;
        if (sweepAgain) sweepSoon();
      });
  }

  // From the beginning, as every group here starts; joined in the background (followFromStart), so
  // a restarted worker is ready at once and its sweeper claims queued runs meanwhile.
  const subscription: Subscription = await followFromStart(options.log, {
    group: WORKER_GROUP,
    topics: [topicOf(CAPTURE_SERVICE)],
    handle: async (record) => {
      const event = record.value as DomainEvent;
      if (event?.type !== 'run.queued' || event.resource?.kind !== 'run') return;
      await options.leases.track(event.tenantId, event.resource.id);
      await take(event.tenantId, event.resource.id);
    },
  });
  const sweepMs = options.sweepMs ?? Math.max(100, Math.floor(leaseMs / 2));
  const sweeper = setInterval(sweepSoon, sweepMs);

  return {
    id,
    async stop() {
      stopping = true;
      clearInterval(sweeper);
      await subscription.stop();
      await sweeping; // a claim in flight joins the runs in hand before they are counted
      const running = () => Promise.all([...inHand.values()].map((entry) => entry.done));
      if (await within(running(), options.drainMs ?? DEFAULT_DRAIN_MS)) return;
      // Out of drain time: kill the engines and give the runs back before Kubernetes' SIGKILL would
      // (which would cost each run an attempt and its lease time).
      for (const entry of inHand.values()) entry.controller.abort(new HandBack());
      if (!(await within(running(), HAND_BACK_MS))) logger.warn('runs still in hand after their hand-back');
    },
    async crash() {
      stopping = true;
      crashed = true;
      clearInterval(sweeper);
      await subscription.stop();
    },
  };
}

/** The engine's job: the run's choices and the capture's stored files, as capture handed them. */
/** The point-cloud artifacts of a run (PLY, LAS): what stated regions are measured on. */
const storedClouds = (artifacts: readonly SceneArtifact[]) =>
  artifacts.filter(isPointCloud).map(({ key, name }) => ({ key, name }));

function jobOf(run: ClaimedRun): EngineJob {
  const { tenantId, runId } = run.held;
  const attempt = run.attempts;
  return {
    tenantId,
    projectId: run.projectId,
    captureId: run.captureId,
    runId,
    attempt,
    mode: run.mode,
    quality: run.quality,
    ...(run.structureSpanM !== undefined ? { structureSpanM: run.structureSpanM } : {}),
    frames: run.frames,
    control: run.control,
    hasLidar: run.hasLidar,
    outputPath: (name) => blobKey(tenantId, 'runs', runId, `attempt-${attempt}`, name),
  };
}

const runTenant = (run: ClaimedRun) => ({
  id: run.held.runId,
  tenantId: run.held.tenantId,
  tenantCurrency: run.tenantCurrency,
  tenantDefaultVertical: run.tenantDefaultVertical,
});

/** Whether the work settles within ms (it keeps going either way). */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits until no lease write is in progress (held is null only while one is). */
async function waitForWrite(current: () => HeldRun | null, signal: AbortSignal): Promise<void> {
  for (let i = 0; i < 100 && current() === null && !signal.aborted; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const isEngineName = (value: string): value is CaptureEngine =>
  (CAPTURE_ENGINES as readonly string[]).includes(value);
