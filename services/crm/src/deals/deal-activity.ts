// A deal's timeline: entries of the activity collection about the deal (customers/activity.ts
// writes and reads them for every subject), with the trigger, cause and version of each move.
import type { Complete } from '@fieldops/kit/domain';
import type { RequestContext } from '@fieldops/kit';
import type { Doc, DocumentStore } from '@fieldops/kit/store';
import type { common, deals } from '@fieldops/proto';
import { activityEntry, newestActivity } from '../customers/activity.ts';

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
  return activityEntry(ctx, tenantId, 'deal', dealId, rest);
}

export const toDealActivityView = (doc: DealActivityDoc): deals.DealActivityEntry =>
  ({
    id: doc.id,
    at: doc.at,
    action: doc.action,
    changes: doc.changes.map((change) => ({ ...change })),
    trigger: doc.trigger,
    cause: doc.cause,
    note: doc.note,
    actor: doc.actor,
    requestId: doc.requestId,
  }) satisfies Complete<deals.DealActivityEntry>;

export async function listDealActivity(
  store: DocumentStore,
  tenantId: string,
  dealId: string,
): Promise<deals.DealActivityEntry[]> {
  const docs = await newestActivity<DealActivityDoc>(store, tenantId, dealId);
  return docs.sort(newestFirst).map(toDealActivityView);
}

/** By the version each entry produced; `at` alone ties when a deal is created and moved in one ms. */
const newestFirst = (a: DealActivityDoc, b: DealActivityDoc): number =>
  b.dealVersion - a.dealVersion || b.at.localeCompare(a.at);
