import { type RequestContext, newId, nowIso } from '@fieldops/kit';
import type { DocumentStore, WriteOp } from '@fieldops/kit/store';
import type { WritePlan } from '@fieldops/kit/write';
import type { common, crm } from '@fieldops/proto';
import { setFields, cleanText, compact, emailKeyOf, requiredName, checkLengths } from '@fieldops/kit/domain';
import { LEADS } from '../collections.ts';
import { findCustomerMatch } from '../customers/customer.model.ts';
import { createEffect, eventEffect } from '../effects.ts';
import { emitCrmEvent } from '../events.ts';
import { insertInboundMessage, newInboundMessage, type InboundMessageDoc } from './inbound-messages.ts';
import { leadScore } from './lead-score.ts';
import { LEAD_FIELD_LIMITS, LEAD_STATUS_MACHINE } from '@fieldops/contracts';
import { LEAD_CHANGE_FIELDS, toLeadView, type LeadDoc } from './lead.model.ts';

type LeadInput = Pick<LeadDoc, 'name' | 'email' | 'phone' | 'message' | 'source' | 'ownerId'>;

function leadInput(req: crm.CreateLeadRequest): LeadInput {
  checkLengths(LEAD_FIELD_LIMITS, req);
  return {
    name: requiredName(req.name),
    email: cleanText(req.email),
    phone: cleanText(req.phone),
    message: cleanText(req.message),
    source: cleanText(req.source),
    ownerId: cleanText(req.ownerId),
  };
}

export async function planCreateLead(
  store: DocumentStore,
  tenantId: string,
  req: crm.CreateLeadRequest,
  ctx: RequestContext,
): Promise<WritePlan<crm.Lead>> {
  const input = leadInput(req);
  const emailKey = emailKeyOf(input.email);
  if (emailKey) {
    const open = await store.findOne<LeadDoc>(LEADS, tenantId, { openEmailKey: emailKey });
    if (open) return planDedupe(open, input, tenantId, ctx);
  }
  const now = nowIso();
  const doc: LeadDoc = compact({
    id: newId('lead'),
    tenantId,
    version: 1,
    ...input,
    openEmailKey: emailKey,
    status: LEAD_STATUS_MACHINE.initial,
    score: leadScore(input),
    createdAt: now,
    updatedAt: now,
    opId: ctx.idempotencyKey || cleanText(req.opId),
    customerMatch: emailKey ? await findCustomerMatch(store, tenantId, emailKey) : undefined,
  });
  return planNewLead(doc, tenantId, ctx);
}

function planNewLead(doc: LeadDoc, tenantId: string, ctx: RequestContext): WritePlan<crm.Lead> {
  const lead = toLeadView(doc);
  // The capture's message is also the first entry of the lead's inbound log.
  const message = doc.message
    ? newInboundMessage(ctx, tenantId, { leadId: doc.id, body: doc.message, source: doc.source })
    : undefined;
  const event = emitCrmEvent(
    ctx,
    'lead.created',
    { kind: 'lead', id: doc.id },
    { lead, inboundMessageId: message?.id },
  );
  const ops: WriteOp[] = [{ op: 'insert', collection: LEADS, doc }, ...messageOps(message), event];
  const matched = lead.customerMatch ? `, flagged as matching customer ${lead.customerMatch.customerId}` : '';
  return {
    ops,
    result: lead,
    created: true,
    rehearsal: {
      willDo: `Create lead "${doc.name}" with status ${doc.status} and score ${doc.score}${matched}${message ? ', and log its message' : ''}.`,
      effects: [
        createEffect('lead', doc.id, setFields(doc, LEAD_CHANGE_FIELDS)),
        ...messageEffects(message),
        eventEffect('lead.created', doc.id),
      ],
    },
  };
}

/**
 * An open lead already has this email: the spec answers with that lead (deduped true). Our
 * decision: the lead itself is left as it is (no silent overwrite of what someone already worked
 * on); a message in the new capture is logged as another inbound message on it, together with the
 * other fields that capture carried, and a lead.message_logged event tells subscribers. A capture
 * without a message changes nothing and stores nothing.
 */
function planDedupe(
  existing: LeadDoc,
  input: LeadInput,
  tenantId: string,
  ctx: RequestContext,
): WritePlan<crm.Lead> {
  const lead = toLeadView(existing);
  const message = input.message
    ? newInboundMessage(ctx, tenantId, {
        leadId: existing.id,
        body: input.message,
        source: input.source,
        submitted: submittedFields(input),
      })
    : undefined;
  const ops = message
    ? [
        insertInboundMessage(message),
        emitCrmEvent(
          ctx,
          'lead.message_logged',
          { kind: 'lead', id: existing.id },
          { inboundMessageId: message.id, deduped: true },
        ),
      ]
    : [];
  return {
    ops,
    result: lead,
    created: false,
    deduped: true,
    rehearsal: {
      willDo: `Return the open lead ${existing.id} that has the same email (deduped)${message ? ' and log the new message on it' : '; nothing new would be stored'}.`,
      effects: message ? [...messageEffects(message), eventEffect('lead.message_logged', existing.id)] : [],
    },
  };
}

function submittedFields(input: LeadInput): Record<string, string> {
  const { message: _message, ...rest } = input;
  const submitted: Record<string, string> = {};
  for (const [field, value] of Object.entries(rest)) if (value !== undefined) submitted[field] = value;
  return submitted;
}

const messageOps = (message: InboundMessageDoc | undefined): WriteOp[] =>
  message ? [insertInboundMessage(message)] : [];

const messageEffects = (message: InboundMessageDoc | undefined): common.Effect[] =>
  message
    ? [createEffect('inbound_message', message.id, setFields(message, ['leadId', 'body', 'source']))]
    : [];
