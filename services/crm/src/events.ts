// The crm service's outbox events. Every write emits its event in the same commit as the change
// (runWrite commits plan.ops together), so subscribers and the audit ledger never miss one.
import type { RequestContext } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import type { WriteOp } from '@fieldops/kit/store';

export const CRM_SERVICE = 'crm';

/** Event types this service emits. */
export type CrmEventType =
  | 'lead.created'
  | 'lead.updated'
  | 'lead.message_logged'
  | 'customer.created'
  | 'customer.updated'
  // Deals and lead conversion/qualification (issue 3).
  | 'lead.converted'
  | 'lead.qualified'
  | 'deal.created'
  | 'deal.stage_changed'
  | 'deal.value_changed'
  // Proposals, invoices and bookings (issue 3, billing). proposal.signed and payment.received are
  // the spec's "proposal signed" and "payment received".
  | 'proposal.created'
  | 'proposal.updated'
  | 'proposal.sent'
  | 'proposal.viewed'
  | 'proposal.signed'
  | 'proposal.declined'
  | 'proposal.expired'
  | 'proposal.withdrawn'
  | 'invoice.created'
  | 'invoice.updated'
  | 'invoice.issued'
  | 'invoice.voided'
  | 'invoice.paid'
  | 'payment.received'
  | 'booking.requested'
  | 'booking.confirmed'
  | 'booking.declined'
  | 'booking_policy.recorded';

export function emitCrmEvent(
  ctx: RequestContext,
  type: CrmEventType,
  resource: { kind: string; id: string },
  data: Record<string, unknown>,
): WriteOp {
  return { op: 'emit', event: domainEvent(CRM_SERVICE, ctx, type, resource, data) };
}
