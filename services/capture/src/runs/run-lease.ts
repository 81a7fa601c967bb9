// The lease a worker holds on a run while it works on it: the rules, over capture's store. Every
// change a worker makes to a run is a replace at the version it last wrote, so a worker that lost
// its lease (it stalled or died and another took the run over) can change nothing more: its
// progress, its completion and its failure are all refused by the store. That is what makes a
// retried run happen once in effect. Workers reach these through the RunLeases port
// (run-leases.local.ts in capture's process, capture's RunLeaseService from a worker process).
import { RUN_STATUS_MACHINE } from '@fieldops/contracts';
import { newId, nowIso } from '@fieldops/kit';
import { StoreConflict, type Doc, type DocumentStore, type WriteOp } from '@fieldops/kit/store';
import type { capture } from '@fieldops/proto';
import { ARTIFACTS, CAPTURE_SESSIONS, RUNS, SCENES } from '../collections.ts';
import type { CaptureSessionDoc } from '../session-model/session.model.ts';
import { emitCaptureEvent } from '../events.ts';
import { toRunView, type RunDoc } from '../run-model/run.model.ts';
import type { EngineResult } from '../worker/engine.port.ts';
import type { RunResult, SkipReason } from '../worker/run-leases.port.ts';
import { workerContext } from '../worker/worker-context.ts';

/** The status a claim leads to: a worker holds the run under its lease. */
const RUNNING = RUN_STATUS_MACHINE.destination('claim');

export interface SceneDoc extends Doc {
  projectId: string;
  runId: string;
  captureId: string;
  kind: string;
  pointCount: number;
  bounds?: EngineResult['scene']['bounds'];
  formats: string[];
  sceneTag?: string;
  /** The scene's files, each also an ARTIFACTS document. */
  artifacts: (EngineResult['artifacts'][number] & { id: string })[];
  createdAt: string;
  /** Photogrammetry: how well the reconstruction went (also on the run). */
  reconstruction?: capture.ReconstructionQuality;
}

/** The engine's quality figures with the upload time beside the photos' own date. */
async function withUploadTime(
  store: DocumentStore,
  held: RunDoc,
  reconstruction: capture.ReconstructionQuality | undefined,
): Promise<capture.ReconstructionQuality | undefined> {
  if (!reconstruction) return undefined;
  const session = await store.get<CaptureSessionDoc>(CAPTURE_SESSIONS, held.tenantId, held.captureId);
  const uploadedAt = session?.finalizedAt ?? held.createdAt;
  const captureDate = reconstruction.captureDate ?? {
    takenAt: '',
    source: 'none',
    firstTakenAt: '',
    lastTakenAt: '',
    uploadedAt: '',
  };
  return { ...reconstruction, captureDate: { ...captureDate, uploadedAt } };
}

export interface ArtifactDoc extends Doc {
  projectId: string;
  sceneId: string;
  key: string;
  name: string;
  contentType: string;
  size: number;
  createdAt: string;
}

/** Commits a change to a held run; false when the lease was lost (the run moved on without us). */
async function commitHeld(
  store: DocumentStore,
  held: RunDoc,
  next: RunDoc,
  extra: WriteOp[] = [],
): Promise<boolean> {
  try {
    await store.commit(held.tenantId, [
      { op: 'replace', collection: RUNS, doc: next, expectedVersion: held.version },
      ...extra,
    ]);
    return true;
  } catch (error) {
    if (error instanceof StoreConflict) return false;
    throw error;
  }
}

export type RunClaim = { claimed: RunDoc } | { skipped: SkipReason };

/** Takes a queued run, or a running one whose lease expired (its worker died), as attempt n+1. */
export async function claimRun(
  store: DocumentStore,
  tenantId: string,
  runId: string,
  owner: string,
  leaseMs: number,
): Promise<RunClaim> {
  const run = await store.get<RunDoc>(RUNS, tenantId, runId);
  if (!run) return { skipped: 'missing' };
  if (RUN_STATUS_MACHINE.isFinal(run.status)) return { skipped: 'done' };
  const now = Date.now();
  if (run.status === RUNNING && run.lease && run.lease.untilMs > now) return { skipped: 'held' };
  if (run.attempts >= run.maxAttempts) {
    const failed = await finishRun(store, run, {
      trigger: 'fail',
      error: `The run was started ${run.attempts} times and never finished; its workers stopped mid-run. Process the capture again.`,
    });
    return failed ? { skipped: 'exhausted' } : { skipped: 'lost' };
  }
  const next: RunDoc = {
    ...run,
    status: RUNNING,
    attempts: run.attempts + 1,
    lease: { owner, untilMs: now + leaseMs },
    phase: run.attempts > 0 ? `retrying (attempt ${run.attempts + 1})` : 'starting',
    startedAt: run.startedAt ?? nowIso(),
    updatedAt: nowIso(),
  };
  const event = emitCaptureEvent(
    workerContext(run, 'reconstructRun'),
    'run.started',
    { kind: 'run', id: run.id },
    {
      attempt: next.attempts,
    },
  );
  return (await commitHeld(store, run, next, [event]))
    ? { claimed: { ...next, version: run.version + 1 } }
    : { skipped: 'lost' };
}

/** Progress and a renewed lease; the run as now stored, or null when the lease was lost. */
export async function renewRun(
  store: DocumentStore,
  held: RunDoc,
  leaseMs: number,
  progress?: { fraction: number; phase: string },
): Promise<RunDoc | null> {
  const next: RunDoc = {
    ...held,
    lease: { owner: held.lease?.owner ?? '', untilMs: Date.now() + leaseMs },
    ...(progress ? { progress: Math.min(1, Math.max(0, progress.fraction)), phase: progress.phase } : {}),
    updatedAt: nowIso(),
  };
  return (await commitHeld(store, held, next)) ? { ...next, version: held.version + 1 } : null;
}

/** Records the scene and the finished run together, with their events: once, or not at all. */
export async function completeRun(store: DocumentStore, held: RunDoc, result: RunResult): Promise<boolean> {
  const reconstruction = await withUploadTime(store, held, result.reconstruction);
  const scene: SceneDoc = {
    id: newId('scn'),
    tenantId: held.tenantId,
    version: 1,
    projectId: held.projectId,
    runId: held.id,
    captureId: held.captureId,
    kind: result.scene.kind,
    pointCount: result.scene.pointCount,
    ...(result.scene.bounds ? { bounds: result.scene.bounds } : {}),
    formats: result.scene.formats,
    ...(held.sceneTag ? { sceneTag: held.sceneTag } : {}),
    artifacts: result.artifacts.map((artifact) => ({ ...artifact, id: newId('art') })),
    createdAt: nowIso(),
    ...(reconstruction ? { reconstruction } : {}),
  };
  const artifacts: WriteOp[] = scene.artifacts.map((artifact) => ({
    op: 'insert',
    collection: ARTIFACTS,
    doc: {
      id: artifact.id,
      tenantId: held.tenantId,
      version: 1,
      projectId: held.projectId,
      sceneId: scene.id,
      key: artifact.key,
      name: artifact.name,
      contentType: artifact.contentType,
      size: artifact.size,
      createdAt: scene.createdAt,
    } satisfies ArtifactDoc,
  }));
  const ctx = workerContext(held, 'reconstructRun');
  const succeeded = {
    trigger: 'succeed' as const,
    sceneId: scene.id,
    ...(reconstruction ? { reconstruction } : {}),
  };
  const done = await finishRun(store, held, succeeded, [
    { op: 'insert', collection: SCENES, doc: scene },
    ...artifacts,
    emitCaptureEvent(
      ctx,
      'scene.ready',
      { kind: 'scene', id: scene.id },
      {
        projectId: held.projectId,
        runId: held.id,
        captureId: held.captureId,
        pointCount: scene.pointCount,
      },
    ),
  ]);
  return done;
}

export async function finishRun(
  store: DocumentStore,
  held: RunDoc,
  outcome:
    | { trigger: 'succeed'; sceneId: string; reconstruction?: capture.ReconstructionQuality }
    | { trigger: 'fail'; error: string },
  extra: WriteOp[] = [],
): Promise<boolean> {
  const { inFlightCaptureId: _released, lease: _lease, ...rest } = held;
  const { trigger, ...recorded } = outcome;
  const status = RUN_STATUS_MACHINE.destination(trigger);
  const succeeded = trigger === 'succeed';
  const next: RunDoc = {
    ...rest,
    ...recorded,
    status,
    progress: succeeded ? 1 : held.progress,
    phase: status,
    finishedAt: nowIso(),
    updatedAt: nowIso(),
  };
  const event = emitCaptureEvent(
    workerContext(held, 'reconstructRun'),
    succeeded ? 'run.succeeded' : 'run.failed',
    { kind: 'run', id: held.id },
    { run: toRunView(next) },
  );
  return commitHeld(store, held, next, [...extra, event]);
}

/**
 * Gives a held run back to the queue: after a failure a retry may fix (the attempt counts), or
 * handed back by a stopping worker (a drain), when the attempt it started is taken back so a
 * rollout never spends one of the run's attempts.
 */
export async function releaseRun(
  store: DocumentStore,
  held: RunDoc,
  how: 'failed' | 'handed-back' = 'failed',
): Promise<boolean> {
  const { lease: _lease, ...rest } = held;
  const handedBack = how === 'handed-back';
  return commitHeld(store, held, {
    ...rest,
    status: RUN_STATUS_MACHINE.destination('release'),
    ...(handedBack ? { attempts: Math.max(0, held.attempts - 1) } : {}),
    phase: handedBack ? 'handed back by a stopping worker' : 'waiting to retry',
    updatedAt: nowIso(),
  });
}
