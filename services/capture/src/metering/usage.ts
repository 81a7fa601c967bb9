import { type RequestContext, newId, nowIso } from '@fieldops/kit';
import type { Doc, WriteOp } from '@fieldops/kit/store';
import { USAGE } from '../collections.ts';
import { emitCaptureEvent } from '../events.ts';

export type UsageKind = 'upload_bytes' | 'upload_cancel_fee' | 'compute_run';

export interface UsageDoc extends Doc {
  kind: UsageKind;
  /** The session or run metered. */
  subjectId: string;
  projectId: string;
  /** Bytes for upload_bytes, 1 for a compute run, cents for a fee. */
  quantity: number;
  unit: 'byte' | 'run' | 'cent';
  currency?: string;
  /** A fee voided because the cancellation it billed never took effect (a finalize won the race). */
  voidedAt?: string;
  tokenId: string;
  createdAt: string;
}

export function meter(
  ctx: RequestContext,
  tenantId: string,
  entry: Pick<UsageDoc, 'kind' | 'subjectId' | 'projectId' | 'quantity' | 'unit' | 'currency'>,
): { doc: UsageDoc; ops: WriteOp[] } {
  const doc: UsageDoc = {
    id: newId('use'),
    tenantId,
    version: 1,
    ...entry,
    tokenId: ctx.principal?.tokenId ?? '',
    createdAt: nowIso(),
  };
  return {
    doc,
    ops: [
      { op: 'insert', collection: USAGE, doc },
      emitCaptureEvent(ctx, 'usage.metered', { kind: 'usage', id: doc.id }, { ...entry }),
    ],
  };
}
