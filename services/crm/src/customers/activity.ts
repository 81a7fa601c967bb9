import { type RequestContext, newId } from '@fieldops/kit';
import type { Doc, DocumentStore, WriteOp } from '@fieldops/kit/store';
import type { common, crm } from '@fieldops/proto';
import { actorOf, compact, type Complete } from '@fieldops/kit/domain';
import { ACTIVITY } from '../collections.ts';

export interface ActivityDoc extends Doc {
  subjectKind: 'customer';
  subjectId: string;
  at: string;
  /** created | updated (message_logged and deal events join with conversion). */
  action: string;
  changes: common.FieldChange[];
  actor: string;
  requestId: string;
  note?: string;
}

/** Newest first; the single read shows at most this many. */
export const ACTIVITY_SHOWN = 100;

/** An entry about one subject (a customer, a deal), stamped with who made it and in which request. */
export function activityEntry<K extends string, E extends object>(
  ctx: RequestContext,
  tenantId: string,
  subjectKind: K,
  subjectId: string,
  entry: E,
) {
  return compact({
    id: newId('act'),
    tenantId,
    version: 1,
    subjectKind,
    subjectId,
    ...entry,
    actor: actorOf(ctx),
    requestId: ctx.requestId,
  });
}

export function newActivity(
  ctx: RequestContext,
  tenantId: string,
  entry: { subjectId: string; at: string; action: string; changes: common.FieldChange[]; note?: string },
): ActivityDoc {
  const { subjectId, ...rest } = entry;
  return activityEntry(ctx, tenantId, 'customer', subjectId, rest);
}

/** Writes an entry (of any subject) to the activity collection. */
export const insertActivity = (doc: Doc & { subjectKind: string }): WriteOp => ({
  op: 'insert',
  collection: ACTIVITY,
  doc,
});

/** The newest entries about `subjectId`, at most ACTIVITY_SHOWN. */
export const newestActivity = <T extends Doc>(
  store: DocumentStore,
  tenantId: string,
  subjectId: string,
): Promise<T[]> =>
  store.find<T>(
    ACTIVITY,
    tenantId,
    { subjectId },
    { sort: { field: 'at', direction: 'desc' }, limit: ACTIVITY_SHOWN },
  );

export const toActivityView = (doc: ActivityDoc): crm.ActivityEntry =>
  ({
    id: doc.id,
    at: doc.at,
    action: doc.action,
    changes: doc.changes.map((change) => ({ ...change })),
    actor: doc.actor,
    requestId: doc.requestId,
    note: doc.note,
  }) satisfies Complete<crm.ActivityEntry>;

export async function listActivity(
  store: DocumentStore,
  tenantId: string,
  subjectId: string,
): Promise<crm.ActivityEntry[]> {
  return (await newestActivity<ActivityDoc>(store, tenantId, subjectId)).map(toActivityView);
}
