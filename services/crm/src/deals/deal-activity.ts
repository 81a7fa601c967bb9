import { type RequestContext, newId } from '@fieldops/kit';
import type { Doc, DocumentStore, WriteOp } from '@fieldops/kit/store';
import type { common, deals } from '@fieldops/proto';
import { actorOf, compact } from '@fieldops/kit/domain';
import { ACTIVITY } from '../collections.ts';

export type DealActivityAction = 'created' | 'stage_changed' | 'value_changed';

export interface DealActivityDoc extends Doc {
  subjectKind: 'deal';
  subjectId: string;
  at: string;
  /** The deal's version this entry produced: orders entries written within the same millisecond. */
  dealVersion: number;
  action: DealActivityAction;
  changes: common.FieldChange[];
  trigger?: string;
  cause?: string;
  note?: string;
  actor: string;
  requestId: string;
}

/** Newest first; the single read shows at most this many. */
export const DEAL_ACTIVITY_SHOWN = 100;

export function newDealActivity(
  ctx: RequestContext,
  tenantId: string,
  entry: {
    dealId: string;
    dealVersion: number;
    at: string;
    action: DealActivityAction;
    changes: common.FieldChange[];
    trigger?: string;
    cause?: string;
    note?: string;
  },
): DealActivityDoc {
  const { dealId, ...rest } = entry;
  return compact({
    id: newId('act'),
    tenantId,
    version: 1,
    subjectKind: 'deal',
    subjectId: dealId,
    ...rest,
    actor: actorOf(ctx),
    requestId: ctx.requestId,
  });
}

export const insertDealActivity = (doc: DealActivityDoc): WriteOp => ({
  op: 'insert',
  collection: ACTIVITY,
  doc,
});

export const toDealActivityView = (doc: DealActivityDoc): deals.DealActivityEntry => ({
  id: doc.id,
  at: doc.at,
  action: doc.action,
  changes: doc.changes.map((change) => ({ ...change })),
  trigger: doc.trigger,
  cause: doc.cause,
  note: doc.note,
  actor: doc.actor,
  requestId: doc.requestId,
});

export async function listDealActivity(
  store: DocumentStore,
  tenantId: string,
  dealId: string,
): Promise<deals.DealActivityEntry[]> {
  const docs = await store.find<DealActivityDoc>(
    ACTIVITY,
    tenantId,
    { subjectId: dealId },
    { sort: { field: 'at', direction: 'desc' }, limit: DEAL_ACTIVITY_SHOWN },
  );
  return docs.sort(newestFirst).map(toDealActivityView);
}

/** By the version each entry produced; `at` alone ties when a deal is created and moved in one ms. */
const newestFirst = (a: DealActivityDoc, b: DealActivityDoc): number =>
  b.dealVersion - a.dealVersion || b.at.localeCompare(a.at);
