// Planning POST /invoices/:id/void: the business cancels a bill nobody has paid anything on. The
// payment page stops working (the link nonce is cleared). Money already received is never undone
// through the API (spec: refunds are human acts), so an invoice with a payment cannot be voided.
import { BILLING_REASON_MAX, INVOICE_STATUS_MACHINE } from '@fieldops/contracts';
import { checkLengths, getOrNotFound } from '@fieldops/kit/domain';
import { type RequestContext, AppError } from '@fieldops/kit';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { billing } from '@fieldops/proto';
import { illegalTrigger, requiredText } from '../billing/refusals.ts';
import { INVOICES } from '../collections.ts';
import { invoiceStep } from './invoice-move.ts';
import { invoiceTriggersNow, toInvoiceView, type InvoiceDoc, type InvoiceOutcome } from './invoice.model.ts';
import type { BillingDeps } from '../billing/billing-deps.ts';

export async function planVoidInvoice(
  { store }: BillingDeps,
  tenantId: string,
  req: billing.VoidInvoiceRequest,
  ctx: RequestContext,
): Promise<WritePlan<InvoiceOutcome>> {
  checkLengths({ reason: BILLING_REASON_MAX }, req);
  const reason = requiredText('reason', req.reason);
  const doc = await getOrNotFound<InvoiceDoc>(store, INVOICES, tenantId, req.id, 'invoice');
  if (doc.status === INVOICE_STATUS_MACHINE.triggers.void.to) {
    return unchangedPlan(
      { invoice: toInvoiceView(doc) },
      `Nothing would change: invoice ${doc.id} is already void.`,
    );
  }
  if (!INVOICE_STATUS_MACHINE.canFire(doc.status, 'void')) {
    throw illegalTrigger('invoice', doc.id, doc.status, 'void', invoiceTriggersNow(doc));
  }
  if (doc.paidCents > 0) {
    throw new AppError(
      'conflict',
      `Invoice ${doc.id} has ${doc.paidCents} cents paid on it; an invoice with money received cannot be voided through the API (refunds are a human act).`,
      { status: doc.status, paidCents: doc.paidCents, legalTriggers: [] },
    );
  }
  const step = invoiceStep(
    doc,
    'void',
    { voidedAt: new Date().toISOString(), voidReason: reason, linkNonce: undefined },
    ctx,
    { reason },
  );
  return {
    ops: step.ops,
    result: { invoice: toInvoiceView(step.next) },
    created: false,
    rehearsal: {
      willDo: `Void invoice ${doc.id} "${doc.title}" (${doc.status}); ${doc.status === INVOICE_STATUS_MACHINE.initial ? 'it was never issued' : 'its payment page stops working'}.`,
      effects: step.effects,
      totalCents: doc.totals.totalCents,
    },
  };
}
