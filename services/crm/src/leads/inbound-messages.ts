import { type RequestContext, newId, nowIso } from '@fieldops/kit';
import type { Doc, DocumentStore, WriteOp } from '@fieldops/kit/store';
import type { crm } from '@fieldops/proto';
import { INBOUND_MESSAGES } from '../collections.ts';
import { compact, type Complete } from '@fieldops/kit/domain';

export interface InboundMessageDoc extends Doc {
  leadId: string;
  body: string;
  source?: string;
  receivedAt: string;
  requestId: string;
  /**
   * On a deduped capture, the other fields that submission carried. They are never applied to the
   * existing lead (a PATCH does that), but kept so nothing the person sent is lost.
   */
  submitted?: Record<string, string>;
}

/** Newest first; the single read shows at most this many. */
export const INBOUND_MESSAGES_SHOWN = 100;

export function newInboundMessage(
  ctx: RequestContext,
  tenantId: string,
  fields: { leadId: string; body: string; source?: string; submitted?: Record<string, string> },
): InboundMessageDoc {
  return compact({
    id: newId('msg'),
    tenantId,
    version: 1,
    ...fields,
    receivedAt: nowIso(),
    requestId: ctx.requestId,
  });
}

export const insertInboundMessage = (doc: InboundMessageDoc): WriteOp => ({
  op: 'insert',
  collection: INBOUND_MESSAGES,
  doc,
});

export const toInboundMessageView = (doc: InboundMessageDoc): crm.InboundMessage =>
  ({
    id: doc.id,
    body: doc.body,
    source: doc.source,
    receivedAt: doc.receivedAt,
  }) satisfies Complete<crm.InboundMessage>;

export async function listInboundMessages(
  store: DocumentStore,
  tenantId: string,
  leadId: string,
): Promise<crm.InboundMessage[]> {
  const docs = await store.find<InboundMessageDoc>(
    INBOUND_MESSAGES,
    tenantId,
    { leadId },
    { sort: { field: 'receivedAt', direction: 'desc' }, limit: INBOUND_MESSAGES_SHOWN },
  );
  return docs.map(toInboundMessageView);
}
