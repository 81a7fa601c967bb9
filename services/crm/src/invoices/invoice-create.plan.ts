// Planning POST /invoices: a draft. A draft asks nobody for anything: no email, no payment page,
// no number and no deal move; those come with issue.
import { checkLengths, cleanText, compact } from '@fieldops/kit/domain';
import { BILLING_DOCUMENT_FIELD_LIMITS, INVOICE_STATUS_MACHINE } from '@fieldops/contracts';
import { type RequestContext, newId, nowIso } from '@fieldops/kit';
import type { WritePlan } from '@fieldops/kit/write';
import type { billing } from '@fieldops/proto';
import { createDraftPlan } from '../billing/document-writes.ts';
import { totalsOf } from '../billing/line-items.ts';
import { formatMoney } from '../billing/money-format.ts';
import { dueDateOrUndefined } from './invoice-dates.ts';
import { invoiceSource } from './invoice-lines.ts';
import { INVOICE_DOC, type InvoiceDoc, type InvoiceOutcome } from './invoice.model.ts';
import type { BillingDeps } from '../billing/billing-deps.ts';

export const MAX_TITLE = 200;

export async function planCreateInvoice(
  { store }: BillingDeps,
  tenantId: string,
  req: billing.CreateInvoiceRequest,
  ctx: RequestContext,
): Promise<WritePlan<InvoiceOutcome>> {
  checkLengths(BILLING_DOCUMENT_FIELD_LIMITS, req);
  const source = await invoiceSource(store, tenantId, req);
  const { owner, proposal } = source;
  const currency = proposal?.totals.currency ?? ctx.tenant?.currency ?? '';
  const now = nowIso();
  const doc: InvoiceDoc = compact({
    id: newId('inv'),
    tenantId,
    version: 1,
    customerId: owner.customer.id,
    dealId: owner.deal?.id,
    proposalId: proposal?.id,
    title: cleanText(req.title) ?? proposal?.title ?? `Invoice for ${owner.customer.name}`,
    lines: source.lines.map((line) => ({ ...line })),
    totals: totalsOf(source.lines, currency),
    status: INVOICE_STATUS_MACHINE.initial,
    paidCents: 0,
    payments: [],
    notes: cleanText(req.notes),
    recipientEmail: cleanText(req.recipientEmail),
    dueDate: dueDateOrUndefined(req.dueDate),
    createdAt: now,
    updatedAt: now,
    opId: ctx.idempotencyKey || cleanText(req.opId),
  });
  const from = proposal ? ` from signed proposal ${proposal.id}` : '';
  return createDraftPlan(
    INVOICE_DOC,
    doc,
    ctx,
    `Create draft invoice "${doc.title}" for customer ${doc.customerId}${from}: ${doc.lines.length} line(s), total ${formatMoney(doc.totals.totalCents, doc.totals.currency)}. Nobody is contacted and nothing is payable until it is issued.`,
  );
}
