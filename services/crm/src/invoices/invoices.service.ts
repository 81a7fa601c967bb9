import type { RequestContext } from '@fieldops/kit';
import type { Filter } from '@fieldops/kit/store';
import { outcomeWriteRpcOf } from '@fieldops/kit/write';
import { documentReadRpc } from '../billing/document-writes.ts';
import { billing } from '@fieldops/proto';
import type { BillingDeps } from '../billing/billing-deps.ts';
import { INVOICES } from '../collections.ts';
import { cleanText, itemJson, listRpcOf, NEWEST_FIRST } from '@fieldops/kit/domain';
import { planCreateInvoice } from './invoice-create.plan.ts';
import { planIssueInvoice } from './invoice-issue.plan.ts';
import { assertMayRecordPayment, planRecordPayment } from './invoice-payment.plan.ts';
import { planUpdateInvoice } from './invoice-update.plan.ts';
import { planVoidInvoice } from './invoice-void.plan.ts';
import { INVOICE_DOC, toInvoiceView } from './invoice.model.ts';

/** An invoice in items_json; one function for the process, so the store remembers its renderings. */
const INVOICE_JSON = itemJson(toInvoiceView, billing.Invoice);

function invoiceFilter(req: billing.ListInvoicesRequest): Filter {
  const filter: Filter = {};
  if (req.status) filter['status'] = req.status;
  if (req.customerId) filter['customerId'] = req.customerId;
  if (req.dealId) filter['dealId'] = req.dealId;
  return filter;
}

/** Newest first; keyset paging (the store breaks createdAt ties by id). */
export const listInvoices = listRpcOf(
  INVOICES,
  { filter: invoiceFilter, sort: NEWEST_FIRST },
  toInvoiceView,
  INVOICE_JSON,
);

export const getInvoice = documentReadRpc(INVOICE_DOC);

export const createInvoice = outcomeWriteRpcOf('createInvoice', planCreateInvoice);

export const updateInvoice = outcomeWriteRpcOf('updateInvoice', planUpdateInvoice);

/** Issuing signs the customer's link, so its plan takes the keyring beside the store. */
export const issueInvoice = outcomeWriteRpcOf('issueInvoice', planIssueInvoice);

export const voidInvoice = outcomeWriteRpcOf('voidInvoice', planVoidInvoice);

/** The payment's write; recordPayment keys it and checks who may record it first. */
const payment = outcomeWriteRpcOf('recordPayment', planRecordPayment);

/**
 * The platform's side only (portal member or payment provider). The request's opId (the
 * provider's payment id, say) keys the write when the context carries no key, so a provider that
 * reports the same payment twice records it once.
 */
export async function recordPayment(
  deps: BillingDeps,
  req: billing.RecordPaymentRequest,
  ctx: RequestContext,
): Promise<billing.InvoiceWrite> {
  assertMayRecordPayment(ctx);
  const keyed = { ...ctx, idempotencyKey: ctx.idempotencyKey || cleanText(req.opId) || '' };
  return payment(deps, req, keyed);
}
