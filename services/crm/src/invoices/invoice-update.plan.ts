// Planning PATCH /invoices/:id: If-Match, drafts only, and the totals recomputed from the lines.
// An issued invoice is what the customer holds; a changed bill is a void and a new draft.
import { BILLING_DOCUMENT_FIELD_LIMITS } from '@fieldops/contracts';
import { checkLengths } from '@fieldops/kit/domain';
import type { RequestContext } from '@fieldops/kit';
import type { WritePlan } from '@fieldops/kit/write';
import type { billing } from '@fieldops/proto';
import { amendedDraft, planAmendDraft } from '../billing/document-writes.ts';
import { dueDateOrUndefined } from './invoice-dates.ts';
import { INVOICE_DOC, type InvoiceDoc, type InvoiceOutcome } from './invoice.model.ts';
import type { BillingDeps } from '../billing/billing-deps.ts';

export async function planUpdateInvoice(
  { store }: BillingDeps,
  tenantId: string,
  req: billing.UpdateInvoiceRequest,
  ctx: RequestContext,
): Promise<WritePlan<InvoiceOutcome>> {
  checkLengths(BILLING_DOCUMENT_FIELD_LIMITS, req);
  return planAmendDraft(INVOICE_DOC, store, tenantId, req, ctx, {
    amend: (doc) => amended(doc, req),
    willDo: (doc, changes) => `Amend draft invoice ${doc.id}: ${changes}. Nobody is contacted.`,
  });
}

function amended(doc: InvoiceDoc, req: billing.UpdateInvoiceRequest): InvoiceDoc {
  return amendedDraft(doc, req, () => ({
    dueDate: req.dueDate === undefined ? doc.dueDate : dueDateOrUndefined(req.dueDate),
  }));
}
