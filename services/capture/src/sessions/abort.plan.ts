// Planning POST /projects/:id/capture/:sessionId/abort?reason=. Only a session still uploading
// is touched: any other answers unchanged (replayed when it is already aborted). reason=failed is
// never charged; reason=cancelled bills the operator's flat, non-refundable upload fee, metered
// once per session.
import { ABORT_REASONS, CAPTURE_SESSION_MACHINE, type AbortReason } from '@fieldops/contracts';
import { eventEffect, updateEffect } from '@fieldops/kit/domain';
import { type RequestContext, nowIso } from '@fieldops/kit';
import type { WriteOp } from '@fieldops/kit/store';
import type { WritePlan } from '@fieldops/kit/write';
import type { capture } from '@fieldops/proto';
import { CAPTURE_SESSIONS } from '../collections.ts';
import type { CaptureDeps } from '../deps.ts';
import { emitCaptureEvent } from '../events.ts';
import { enumField } from '../fields.ts';
import { meter } from '../metering/usage.ts';
import { loadSession } from './session-lookup.ts';
import { toSessionView, type CaptureSessionDoc } from '../session-model/session.model.ts';

export const abortReasonOf = (value: string): AbortReason =>
  enumField('reason', value, ABORT_REASONS) ?? 'failed';

export async function planAbort(
  deps: CaptureDeps,
  tenantId: string,
  req: capture.AbortCaptureRequest,
  ctx: RequestContext,
): Promise<WritePlan<capture.CaptureSession>> {
  const reason = abortReasonOf(req.reason);
  const doc = await loadSession(deps.store, tenantId, req.projectId, req.sessionId);
  const { to } = CAPTURE_SESSION_MACHINE.triggers.abort;
  if (!CAPTURE_SESSION_MACHINE.canFire(doc.status, 'abort')) {
    return {
      ops: [],
      result: toSessionView(doc),
      created: false,
      replayed: doc.status === to,
      rehearsal: {
        willDo: `Capture ${doc.id} is ${doc.status}, no longer uploading; abort would change nothing.`,
        effects: [],
      },
    };
  }
  const now = new Date();
  const currency = ctx.tenant?.currency ?? 'USD';
  const fee = reason === 'cancelled' ? { cents: deps.settings.cancelFeeCents, currency } : undefined;
  const billed =
    fee && fee.cents > 0
      ? meter(ctx, tenantId, {
          kind: 'upload_cancel_fee',
          subjectId: doc.id,
          projectId: doc.projectId,
          quantity: fee.cents,
          unit: 'cent',
          currency,
        })
      : undefined;
  const next: CaptureSessionDoc = {
    ...doc,
    status: to,
    abortReason: reason,
    abortedAt: now.toISOString(),
    abortedAtMs: now.getTime(),
    ...(fee ? { fee } : {}),
    ...(billed ? { feeUsageId: billed.doc.id } : {}),
    updatedAt: nowIso(),
  };
  const ops: WriteOp[] = [
    { op: 'replace', collection: CAPTURE_SESSIONS, doc: next, expectedVersion: doc.version },
    ...(billed?.ops ?? []),
    emitCaptureEvent(
      ctx,
      'capture.aborted',
      { kind: 'capture', id: doc.id },
      {
        projectId: doc.projectId,
        reason,
        ...(fee ? { fee } : {}),
      },
    ),
  ];
  return {
    ops,
    result: toSessionView({ ...next, version: doc.version + 1 }),
    created: false,
    rehearsal: {
      willDo:
        reason === 'cancelled'
          ? `Abort capture ${doc.id} as cancelled and bill the non-refundable upload fee of ${fee?.cents ?? 0} cents.`
          : `Abort capture ${doc.id} as failed; nothing is charged.`,
      effects: [
        updateEffect('capture', doc.id, [{ field: 'status', from: doc.status, to }]),
        eventEffect('capture.aborted', doc.id),
      ],
      ...(fee ? { totalCents: fee.cents } : {}),
    },
  };
}
