// Planning POST /projects/:id/capture/:sessionId/finalize. The server checks its own expected
// keys (never a list from the caller), meters the bytes the store actually holds, and queues the
// reconstruction run, all in one commit. A duplicate finalize answers the finalized session and
// meters nothing (the session is no longer uploading, and the meter entry is unique per session).
// A finalize racing an abort wins: the session machine's timed finalize edge (contracts/src/
// capture.ts) keeps an abort overridable for a while, and an overridden abort has its fee voided,
// because the cancellation never took effect (docs/decisions.md).
import { CAPTURE_SESSION_MACHINE } from '@fieldops/contracts';
import { eventEffect, updateEffect } from '@fieldops/kit/domain';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import { sameContentType, type BlobHead, type BlobKey } from '@fieldops/kit/blobs';
import type { WriteOp } from '@fieldops/kit/store';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { capture } from '@fieldops/proto';
import { CAPTURE_SESSIONS, USAGE } from '../collections.ts';
import type { CaptureDeps } from '../deps.ts';
import { emitCaptureEvent } from '../events.ts';
import { meter, type UsageDoc } from '../metering/usage.ts';
import { newRunOps } from '../run-model/new-run.ts';
import { loadSession } from './session-lookup.ts';
import { toSessionView, type CaptureSessionDoc, type FrameDoc } from '../session-model/session.model.ts';

const { finalize } = CAPTURE_SESSION_MACHINE.triggers;

/** Whether the machine lets finalize fire now: from uploading, or from a recent enough abort. */
const canFinalize = (doc: CaptureSessionDoc, nowMs: number): boolean =>
  CAPTURE_SESSION_MACHINE.canFireWithin(
    doc.status,
    'finalize',
    doc.abortedAtMs === undefined ? undefined : nowMs - doc.abortedAtMs,
  );

/** What is wrong with each frame that is not stored as expected. */
function problemsOf(frames: FrameDoc[], heads: Map<BlobKey, BlobHead | null>) {
  return frames.flatMap((frame) => {
    const head = heads.get(frame.key as BlobKey) ?? null;
    if (!head) return [{ index: frame.index, name: frame.name, key: frame.key, problem: 'not uploaded' }];
    if (!sameContentType(head.contentType, frame.contentType)) {
      return [
        { index: frame.index, name: frame.name, key: frame.key, problem: `stored as ${head.contentType}` },
      ];
    }
    return [];
  });
}

export async function planFinalize(
  deps: CaptureDeps,
  tenantId: string,
  req: capture.CaptureRef,
  ctx: RequestContext,
): Promise<WritePlan<capture.CaptureSession>> {
  const doc = await loadSession(deps.store, tenantId, req.projectId, req.sessionId);
  const nowMs = Date.now();
  if (doc.status === finalize.to) {
    return unchangedPlan(toSessionView(doc), replayWillDo(doc));
  }
  if (!canFinalize(doc, nowMs)) {
    throw new AppError(
      'conflict',
      `Capture session ${doc.id} was aborted (${doc.abortReason}) at ${doc.abortedAt}; presign a new session to upload again.`,
      { status: doc.status, legalTriggers: CAPTURE_SESSION_MACHINE.legalTriggers(doc.status) },
    );
  }
  const heads = await deps.blobs.stat(doc.frames.map((frame) => frame.key as BlobKey));
  const missing = problemsOf(doc.frames, heads);
  if (missing.length > 0) {
    throw new AppError(
      'conflict',
      `${missing.length} of ${doc.frames.length} expected file(s) are not stored as declared (first: frame ${missing[0]!.index} "${missing[0]!.name || missing[0]!.key}", ${missing[0]!.problem}); upload them to their URLs and finalize again.`,
      { missing },
    );
  }
  const frames = doc.frames.map((frame) => ({
    ...frame,
    storedSize: heads.get(frame.key as BlobKey)?.size ?? 0,
  }));
  const storedBytes = frames.reduce((sum, frame) => sum + (frame.storedSize ?? 0), 0);
  const run = newRunOps(ctx, tenantId, {
    projectId: doc.projectId,
    captureId: doc.id,
    trigger: 'finalize',
    mode: doc.mode,
    engine: doc.engine,
    quality: doc.quality,
  });
  const now = nowIso();
  // Finalize fired from anywhere but its own edge: the timed one, over an abort.
  const overriding = !CAPTURE_SESSION_MACHINE.canFire(doc.status, 'finalize');
  const next: CaptureSessionDoc = {
    ...doc,
    status: finalize.to,
    frames,
    storedBytes,
    finalizedAt: now,
    runId: run.doc.id,
    updatedAt: now,
    ...(overriding ? { abortOverridden: true, fee: undefined, abortedAtMs: undefined } : {}),
  };
  const metered = meter(ctx, tenantId, {
    kind: 'upload_bytes',
    subjectId: doc.id,
    projectId: doc.projectId,
    quantity: storedBytes,
    unit: 'byte',
  });
  const ops: WriteOp[] = [
    { op: 'replace', collection: CAPTURE_SESSIONS, doc: next, expectedVersion: doc.version },
    ...metered.ops,
    ...(overriding ? await voidFee(deps, tenantId, doc) : []),
    ...run.ops,
    emitCaptureEvent(
      ctx,
      'capture.finalized',
      { kind: 'capture', id: doc.id },
      {
        projectId: doc.projectId,
        storedBytes,
        runId: run.doc.id,
        abortOverridden: overriding,
      },
    ),
  ];
  return {
    ops,
    result: toSessionView({ ...next, version: doc.version + 1 }),
    created: false,
    rehearsal: {
      willDo: `Finalize capture ${doc.id}: meter ${storedBytes} stored bytes and queue reconstruction run ${run.doc.id}.`,
      effects: [
        updateEffect('capture', doc.id, [
          { field: 'status', from: doc.status, to: finalize.to },
          { field: 'storedBytes', to: String(storedBytes) },
        ]),
        eventEffect('run.queued', run.doc.id),
      ],
    },
  };
}

/** The fee of an abort a finalize overrode: voided, since the cancellation never took effect. */
async function voidFee(deps: CaptureDeps, tenantId: string, doc: CaptureSessionDoc): Promise<WriteOp[]> {
  if (!doc.feeUsageId) return [];
  const fee = await deps.store.get<UsageDoc>(USAGE, tenantId, doc.feeUsageId);
  if (!fee || fee.voidedAt) return [];
  return [
    { op: 'replace', collection: USAGE, doc: { ...fee, voidedAt: nowIso() }, expectedVersion: fee.version },
  ];
}

const replayWillDo = (doc: CaptureSessionDoc) =>
  `Capture ${doc.id} is already finalized; nothing would be metered or queued again.`;
