import { type RequestContext, newId, nowIso } from '@fieldops/kit';
import type { Doc, WriteOp } from '@fieldops/kit/store';
import type { billing } from '@fieldops/proto';
import { OUTBOUND_MESSAGES } from '../collections.ts';
import { compact, type Complete } from '@fieldops/kit/domain';

export type MessageSubject = 'proposal' | 'invoice' | 'booking';

export interface OutboundMessageDoc extends Doc {
  to: string;
  subject: string;
  text: string;
  /** The customer link (path and query); the mailer resolves it against the public origin. */
  linkPath?: string;
  aboutKind: MessageSubject;
  aboutId: string;
  status: 'queued';
  createdAt: string;
  requestId: string;
}

export interface MailDraft {
  to: string;
  subject: string;
  text: string;
  linkPath?: string;
  about: { kind: MessageSubject; id: string };
}

/** The queued message and the op that records it; commit the op with the write that sends it. */
export function queueMail(
  ctx: RequestContext,
  tenantId: string,
  draft: MailDraft,
): { doc: OutboundMessageDoc; op: WriteOp } {
  const doc: OutboundMessageDoc = compact({
    id: newId('msg'),
    tenantId,
    version: 1,
    to: draft.to,
    subject: draft.subject,
    text: draft.text,
    linkPath: draft.linkPath,
    aboutKind: draft.about.kind,
    aboutId: draft.about.id,
    status: 'queued' as const,
    createdAt: nowIso(),
    requestId: ctx.requestId,
  });
  return { doc, op: { op: 'insert', collection: OUTBOUND_MESSAGES, doc } };
}

export const toOutboundMessageView = (doc: OutboundMessageDoc): billing.OutboundMessage =>
  ({
    id: doc.id,
    to: doc.to,
    subject: doc.subject,
    text: doc.text,
    linkPath: doc.linkPath,
    aboutKind: doc.aboutKind,
    aboutId: doc.aboutId,
    createdAt: doc.createdAt,
    status: doc.status,
  }) satisfies Complete<billing.OutboundMessage>;
