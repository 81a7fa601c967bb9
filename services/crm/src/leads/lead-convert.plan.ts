// Planning POST /leads/:id/convert: the lead becomes a customer with an opening deal, what the
// person wrote is logged on the customer's timeline, and the lead takes the status the lead status
// machine gives a converted lead — all in one commit, so a conversion is never half done.
import { CUSTOMER_STAGE_MACHINE, LEAD_STATUS_MACHINE, type CustomerStage } from '@fieldops/contracts';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import type { WritePlan } from '@fieldops/kit/write';
import type { crm } from '@fieldops/proto';
import { INBOUND_MESSAGES, LEADS } from '../collections.ts';
import { insertActivity, newActivity } from '../customers/activity.ts';
import { planCreateCustomer } from '../customers/customer-create.plan.ts';
import { newDealOps } from '../deals/deal-create.plan.ts';
import { createEffect, eventEffect, updateEffect } from '../effects.ts';
import { emitCrmEvent } from '../events.ts';
import { INBOUND_MESSAGES_SHOWN, type InboundMessageDoc } from './inbound-messages.ts';
import { toLeadView, type LeadDoc } from './lead.model.ts';
import { getOrNotFound } from '@fieldops/kit/domain';

export async function planConvertLead(
  store: DocumentStore,
  tenantId: string,
  req: crm.ConvertLeadRequest,
  ctx: RequestContext,
): Promise<WritePlan<crm.LeadConversion>> {
  const lead = await getOrNotFound<LeadDoc>(store, LEADS, tenantId, req.id, 'lead');
  assertConvertible(lead);

  const customerPlan = planCreateCustomer(tenantId, customerRequestFrom(lead), ctx);
  const customer = customerPlan.result;
  const deal = newDealOps(
    ctx,
    tenantId,
    { customerId: customer.id, leadId: lead.id },
    { cause: `lead ${lead.id} converted` },
  );
  const messages = await leadMessages(store, tenantId, lead.id);
  const logged = messages.map((message) => loggedMessage(ctx, tenantId, customer.id, message));
  const converted = convertedLead(lead, customer.id, deal.doc.id);
  const leadView = toLeadView(converted);
  const statusChange = { field: 'status', from: lead.status, to: converted.status };

  return {
    ops: [
      ...customerPlan.ops,
      ...logged.map(insertActivity),
      ...deal.ops,
      { op: 'replace', collection: LEADS, doc: converted, expectedVersion: lead.version },
      emitCrmEvent(
        ctx,
        'lead.converted',
        { kind: 'lead', id: lead.id },
        {
          lead: leadView,
          customerId: customer.id,
          dealId: deal.doc.id,
          inboundMessageIds: messages.map((m) => m.id),
        },
      ),
    ],
    result: { lead: leadView, customer, deal: deal.deal },
    created: true,
    rehearsal: {
      willDo: `Convert lead ${lead.id}: create customer "${customer.name}" at stage ${customer.stage} with an opening deal at stage ${deal.doc.stage}, log ${messages.length} inbound message(s) on the customer's timeline, and set the lead to ${converted.status}.`,
      effects: [
        ...customerPlan.rehearsal.effects,
        ...logged.map((entry) => createEffect('activity', entry.id, [{ field: 'action', to: entry.action }])),
        ...deal.effects,
        updateEffect('lead', lead.id, [statusChange]),
        eventEffect('lead.converted', lead.id),
      ],
    },
  };
}

/** Spec: 409 when the lead cannot be converted; the machine says from which statuses it can. */
function assertConvertible(lead: LeadDoc): void {
  if (LEAD_STATUS_MACHINE.isIn('convertibleFrom', lead.status)) return;
  const convertibleFrom = [...LEAD_STATUS_MACHINE.convertibleFrom];
  const why = lead.convertedTo
    ? `it was already converted to customer ${lead.convertedTo.customerId} with deal ${lead.convertedTo.dealId}`
    : `it is ${lead.status}; only a lead that is ${convertibleFrom.join(', ')} can be converted (a Lost lead can be reopened to New first)`;
  throw new AppError('conflict', `Lead ${lead.id} cannot be converted: ${why}.`, {
    status: lead.status,
    convertibleFrom,
    ...(lead.convertedTo ? { convertedTo: lead.convertedTo } : {}),
  });
}

/**
 * The customer a lead becomes: its contact fields, and the stage matching how far the lead got
 * (a lead status that is also a customer stage, Qualified, is kept; any other starts at the
 * customer machine's first stage).
 */
function customerRequestFrom(lead: LeadDoc): crm.CreateCustomerRequest {
  const stage: CustomerStage = CUSTOMER_STAGE_MACHINE.is(lead.status)
    ? lead.status
    : CUSTOMER_STAGE_MACHINE.initial;
  return {
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    source: lead.source,
    ownerId: lead.ownerId,
    stage,
  };
}

/** Oldest first, so the customer's timeline tells the story in the order it was written. */
const leadMessages = (store: DocumentStore, tenantId: string, leadId: string): Promise<InboundMessageDoc[]> =>
  store.find<InboundMessageDoc>(
    INBOUND_MESSAGES,
    tenantId,
    { leadId },
    { sort: { field: 'receivedAt', direction: 'asc' }, limit: INBOUND_MESSAGES_SHOWN },
  );

/** One timeline entry per inbound message, dated when the person wrote it. */
function loggedMessage(
  ctx: RequestContext,
  tenantId: string,
  customerId: string,
  message: InboundMessageDoc,
) {
  return newActivity(ctx, tenantId, {
    subjectId: customerId,
    at: message.receivedAt,
    action: 'message_logged',
    changes: message.source ? [{ field: 'source', to: message.source }] : [],
    note: message.body,
  });
}

function convertedLead(lead: LeadDoc, customerId: string, dealId: string): LeadDoc {
  const now = nowIso();
  const { openEmailKey: _closed, ...rest } = lead;
  // Converted is not open: dropping openEmailKey frees the email for a new enquiry.
  return {
    ...rest,
    status: LEAD_STATUS_MACHINE.afterConversion,
    convertedTo: { customerId, dealId, convertedAt: now },
    version: lead.version + 1,
    updatedAt: now,
  };
}
