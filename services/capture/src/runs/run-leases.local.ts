// The RunLeases port over capture's own store: the one implementation of the lease rules. The
// one-process platform's workers use it directly; capture's RunLeaseService serves it to worker
// processes (run-leases.handlers.ts), so a worker anywhere follows exactly these rules.
import { blobKeyTenant, parseBlobKey } from '@fieldops/kit/blobs';
import { AppError } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { CAPTURE_SESSIONS, RUNS } from '../collections.ts';
import type { CaptureSessionDoc } from '../session-model/session.model.ts';
import type { EngineFrame } from '../worker/engine.port.ts';
import type { ClaimedRun, HeldRun, RunLeases, RunResult, SkipReason } from '../worker/run-leases.port.ts';
import { forgetActiveRun, listActiveRuns, registerActiveRun } from './active-runs.ts';
import { claimRun, completeRun, finishRun, releaseRun, renewRun } from './run-lease.ts';
import type { RunDoc } from '../run-model/run.model.ts';

/** Skips after which no worker will ever take the run: it leaves the active list. */
const SETTLED: readonly SkipReason[] = ['done', 'exhausted', 'missing'];

export function storeRunLeases(store: DocumentStore): RunLeases {
  /** The run as the worker last held it, or null when it moved on without that worker. */
  async function heldDoc(held: HeldRun): Promise<RunDoc | null> {
    const run = await store.get<RunDoc>(RUNS, held.tenantId, held.runId);
    // The version decides; the owner check only keeps a worker from renewing someone else's hold.
    return run && run.version === held.version && run.lease?.owner === held.owner ? run : null;
  }

  /** Applies a change to a held run; on success the run leaves the active list when it is over. */
  async function settle(held: HeldRun, change: (run: RunDoc) => Promise<boolean>, over: boolean) {
    const run = await heldDoc(held);
    if (!run || !(await change(run))) return false;
    if (over) await forgetActiveRun(store, held.runId);
    return true;
  }

  return {
    track: (tenantId, runId) => registerActiveRun(store, tenantId, runId),

    async listActive(limit) {
      const entries = await listActiveRuns(store, limit);
      return entries.map((entry) => ({ tenantId: entry.runTenantId, runId: entry.id }));
    },

    async claim(tenantId, runId, owner, leaseMs) {
      const outcome = await claimRun(store, tenantId, runId, owner, leaseMs);
      if ('skipped' in outcome) {
        if (SETTLED.includes(outcome.skipped)) await forgetActiveRun(store, runId);
        return outcome;
      }
      const run = outcome.claimed;
      const session = await store.get<CaptureSessionDoc>(CAPTURE_SESSIONS, tenantId, run.captureId);
      if (session) return { claimed: claimedRun(run, session) };
      // Nothing left to reconstruct from: no retry can help, so the run fails here and now.
      const error = `Capture ${run.captureId} no longer exists.`;
      if (await finishRun(store, run, { trigger: 'fail', error })) await forgetActiveRun(store, runId);
      return { skipped: 'missing' };
    },

    async renew(held, leaseMs, progress) {
      const run = await heldDoc(held);
      const next = run ? await renewRun(store, run, leaseMs, progress) : null;
      return next ? { ...held, version: next.version } : null;
    },

    async complete(held, result) {
      assertArtifactsOf(held.tenantId, result);
      return settle(held, (run) => completeRun(store, run, result), true);
    },
    fail: (held, error) => settle(held, (run) => finishRun(store, run, { trigger: 'fail', error }), true),
    release: (held) => settle(held, (run) => releaseRun(store, run), false),
    handBack: (held) => settle(held, (run) => releaseRun(store, run, 'handed-back'), false),
  };
}

/** A scene only lists files of its own tenant, whoever sent the completion. */
function assertArtifactsOf(tenantId: string, result: RunResult): void {
  for (const artifact of result.artifacts) {
    if (blobKeyTenant(parseBlobKey(artifact.key)) !== tenantId) {
      throw new AppError('field_invalid', `Artifact ${artifact.name} is stored outside the run's tenant.`, {
        field: 'artifacts',
      });
    }
  }
}

function claimedRun(run: RunDoc, session: CaptureSessionDoc): ClaimedRun {
  return {
    held: { tenantId: run.tenantId, runId: run.id, owner: run.lease?.owner ?? '', version: run.version },
    projectId: run.projectId,
    captureId: run.captureId,
    attempts: run.attempts,
    maxAttempts: run.maxAttempts,
    engine: run.engine,
    mode: run.mode,
    quality: run.quality,
    ...(run.structureSpanM !== undefined ? { structureSpanM: run.structureSpanM } : {}),
    frames: session.frames.map((frame): EngineFrame => ({
      key: frame.key as EngineFrame['key'],
      name: frame.name,
      contentType: frame.contentType,
      size: frame.storedSize ?? frame.declaredSize,
    })),
    control: session.control ?? false,
    hasLidar: session.hasLidar ?? false,
    tenantCurrency: run.tenantCurrency,
    tenantDefaultVertical: run.tenantDefaultVertical,
  };
}
