// Planning PATCH /invoices/:id: If-Match, drafts only, and the totals recomputed from the lines.
// An issued invoice is what the customer holds; a changed bill is a void and a new draft.
import { BILLING_DOCUMENT_FIELD_LIMITS } from '@fieldops/contracts';
import { checkLengths } from '@fieldops/kit/domain/fields';
import type { RequestContext } from '@fieldops/kit/context';
import { nowIso } from '@fieldops/kit/ids';
import type { DocumentStore } from '@fieldops/kit/store/port';
import type { WritePlan } from '@fieldops/kit/write/index';
import type { billing } from '@fieldops/proto';
import { amendDraftPlan, draftToAmend, unchangedPlan } from '../billing/document-writes.js';
import { priceLines, totalsOf } from '../billing/line-items.js';
import { requiredText } from '../billing/refusals.js';
import { describeChanges, diffFields } from '@fieldops/kit/domain/changes';
import { compact, patched } from '@fieldops/kit/domain/fields';
import { dueDateOrUndefined } from './invoice-dates.js';
import { INVOICE_CHANGE_FIELDS, INVOICE_DOC, invoiceFacts } from './invoice.model.js';
import type { InvoiceDoc, InvoiceOutcome } from './invoice.model.js';

export async function planUpdateInvoice(
  store: DocumentStore,
  tenantId: string,
  req: billing.UpdateInvoiceRequest,
  ctx: RequestContext,
): Promise<WritePlan<InvoiceOutcome>> {
  checkLengths(BILLING_DOCUMENT_FIELD_LIMITS, req);
  const doc = await draftToAmend(INVOICE_DOC, store, tenantId, req);
  const next = amended(doc, req);
  const changes = diffFields(invoiceFacts(doc), invoiceFacts(next), INVOICE_CHANGE_FIELDS);
  const linesChanged = req.hasLines && JSON.stringify(next.lines) !== JSON.stringify(doc.lines);
  if (changes.length === 0 && !linesChanged) return unchangedPlan(INVOICE_DOC, doc);
  const reported = changes.length ? changes : [{ field: 'lines' }];
  const willDo = `Amend draft invoice ${doc.id}: ${describeChanges(reported)}. Nobody is contacted.`;
  return amendDraftPlan(INVOICE_DOC, doc, next, reported, ctx, willDo);
}

function amended(doc: InvoiceDoc, req: billing.UpdateInvoiceRequest): InvoiceDoc {
  const lines = req.hasLines ? priceLines(req.lines) : doc.lines;
  return compact({
    ...doc,
    title: req.title === undefined ? doc.title : requiredText('title', req.title),
    lines,
    totals: totalsOf(lines, doc.totals.currency),
    notes: patched(doc.notes, req.notes),
    recipientEmail: patched(doc.recipientEmail, req.recipientEmail),
    dueDate: req.dueDate === undefined ? doc.dueDate : dueDateOrUndefined(req.dueDate),
    version: doc.version + 1,
    updatedAt: nowIso(),
  });
}
