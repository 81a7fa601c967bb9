import { eventEffect, updateEffect } from '@fieldops/kit/domain';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import { sameContentType, type BlobHead, type BlobKey } from '@fieldops/kit/blobs';
import type { WriteOp } from '@fieldops/kit/store';
import type { WritePlan } from '@fieldops/kit/write';
import type { capture } from '@fieldops/proto';
import { CAPTURE_SESSIONS, USAGE } from '../collections.js';
import type { CaptureDeps } from '../deps.js';
import { emitCaptureEvent } from '../events.js';
import { meter, type UsageDoc } from '../metering/usage.js';
import { newRunOps } from '../runs/new-run.js';
import { loadSession } from './session-lookup.js';
import { toSessionView, type CaptureSessionDoc, type FrameDoc } from './session.model.js';

/** How long after an abort a finalize still wins over it. */
export const ABORT_RACE_WINDOW_MS = 10_000;

const canOverrideAbort = (doc: CaptureSessionDoc, nowMs: number): boolean =>
  doc.status === 'aborted' &&
  doc.abortedAtMs !== undefined &&
  nowMs - doc.abortedAtMs <= ABORT_RACE_WINDOW_MS;

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
  if (doc.status === 'finalized') {
    return {
      ops: [],
      result: toSessionView(doc),
      created: false,
      replayed: true,
      rehearsal: replayRehearsal(doc),
    };
  }
  if (doc.status !== 'uploading' && !canOverrideAbort(doc, nowMs)) {
    throw new AppError(
      'conflict',
      `Capture session ${doc.id} was aborted (${doc.abortReason}) at ${doc.abortedAt}; presign a new session to upload again.`,
      { status: doc.status, legalTriggers: [] },
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
  const overriding = doc.status === 'aborted';
  const next: CaptureSessionDoc = {
    ...doc,
    status: 'finalized',
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
          { field: 'status', from: doc.status, to: 'finalized' },
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

const replayRehearsal = (doc: CaptureSessionDoc) => ({
  willDo: `Capture ${doc.id} is already finalized; nothing would be metered or queued again.`,
  effects: [],
});
