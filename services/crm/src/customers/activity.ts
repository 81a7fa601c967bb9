import { type RequestContext, newId } from '@fieldops/kit';
import type { Doc, DocumentStore, WriteOp } from '@fieldops/kit/store';
import type { common, crm } from '@fieldops/proto';
import { actorOf, compact } from '@fieldops/kit/domain';
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

export function newActivity(
  ctx: RequestContext,
  tenantId: string,
  entry: { subjectId: string; at: string; action: string; changes: common.FieldChange[]; note?: string },
): ActivityDoc {
  return compact({
    id: newId('act'),
    tenantId,
    version: 1,
    subjectKind: 'customer',
    ...entry,
    actor: actorOf(ctx),
    requestId: ctx.requestId,
  });
}

export const insertActivity = (doc: ActivityDoc): WriteOp => ({ op: 'insert', collection: ACTIVITY, doc });

export const toActivityView = (doc: ActivityDoc): crm.ActivityEntry => ({
  id: doc.id,
  at: doc.at,
  action: doc.action,
  changes: doc.changes.map((change) => ({ ...change })),
  actor: doc.actor,
  requestId: doc.requestId,
  note: doc.note,
});

export async function listActivity(
  store: DocumentStore,
  tenantId: string,
  subjectId: string,
): Promise<crm.ActivityEntry[]> {
  const docs = await store.find<ActivityDoc>(
    ACTIVITY,
    tenantId,
    { subjectId },
    { sort: { field: 'at', direction: 'desc' }, limit: ACTIVITY_SHOWN },
  );
  return docs.map(toActivityView);
}
