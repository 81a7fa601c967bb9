// Invoices: bills to a customer. Reads go straight to the store; every write is planned
// (invoice-*.plan.ts) and applied through runWrite, which makes it exactly-once by key,
// dry-runnable, and atomic with its outbox event, its email, its number and its deal move.
import type { RequestContext } from '@fieldops/kit/context';
import { notFound } from '@fieldops/kit/errors';
import type { DocumentStore, Filter } from '@fieldops/kit/store/port';
import { requireTenantId, runWrite } from '@fieldops/kit/write/index';
import type { WritePlan } from '@fieldops/kit/write/index';
import { billing } from '@fieldops/proto';
import type { LinkKeyring } from '../client-links/link-keys.js';
import { INVOICES } from '../collections.js';
import { cleanText } from '@fieldops/kit/domain/fields';
import { itemJson, listPage } from '@fieldops/kit/domain/paging';
import { planCreateInvoice } from './invoice-create.plan.js';
import { planIssueInvoice } from './invoice-issue.plan.js';
import { assertMayRecordPayment, planRecordPayment } from './invoice-payment.plan.js';
import { planUpdateInvoice } from './invoice-update.plan.js';
import { planVoidInvoice } from './invoice-void.plan.js';
import { invoiceTriggersNow, toInvoiceView } from './invoice.model.js';
import type { InvoiceDoc, InvoiceOutcome } from './invoice.model.js';

/** An invoice in items_json; one function for the process, so the store remembers its renderings. */
const INVOICE_JSON = itemJson(toInvoiceView, billing.Invoice);

export interface InvoiceDeps {
  store: DocumentStore;
  keys: LinkKeyring;
}

function invoiceFilter(req: billing.ListInvoicesRequest): Filter {
  const filter: Filter = {};
  if (req.status) filter['status'] = req.status;
  if (req.customerId) filter['customerId'] = req.customerId;
  if (req.dealId) filter['dealId'] = req.dealId;
  return filter;
}

/** Newest first; keyset paging (the store breaks createdAt ties by id). */
export async function listInvoices(
  { store }: InvoiceDeps,
  req: billing.ListInvoicesRequest,
  ctx: RequestContext,
): Promise<billing.InvoicePage> {
  const tenantId = requireTenantId(ctx);
  return listPage(
    store,
    INVOICES,
    tenantId,
    req.page,
    { filter: invoiceFilter(req), sort: { field: 'createdAt', direction: 'desc' } },
    toInvoiceView,
    INVOICE_JSON,
  );
}

export async function getInvoice(
  { store }: InvoiceDeps,
  req: billing.GetInvoiceRequest,
  ctx: RequestContext,
): Promise<billing.InvoiceDetail> {
  const doc = await store.get<InvoiceDoc>(INVOICES, requireTenantId(ctx), req.id);
  if (!doc) throw notFound('invoice', req.id);
  return { invoice: toInvoiceView(doc), legalTriggers: invoiceTriggersNow(doc) };
}

async function write(
  store: DocumentStore,
  ctx: RequestContext,
  operation: string,
  request: unknown,
  plan: (tenantId: string) => Promise<WritePlan<InvoiceOutcome>>,
): Promise<billing.InvoiceWrite> {
  const tenantId = requireTenantId(ctx);
  const { result, meta } = await runWrite(store, ctx, {
    operation,
    fingerprint: request,
    plan: () => plan(tenantId),
  });
  return { invoice: result.invoice, meta, dealMove: result.dealMove };
}

export const createInvoice = (
  { store }: InvoiceDeps,
  req: billing.CreateInvoiceRequest,
  ctx: RequestContext,
) => write(store, ctx, 'createInvoice', req, (tenantId) => planCreateInvoice(store, tenantId, req, ctx));

export const updateInvoice = (
  { store }: InvoiceDeps,
  req: billing.UpdateInvoiceRequest,
  ctx: RequestContext,
) => write(store, ctx, 'updateInvoice', req, (tenantId) => planUpdateInvoice(store, tenantId, req, ctx));

export const issueInvoice = (
  { store, keys }: InvoiceDeps,
  req: billing.IssueInvoiceRequest,
  ctx: RequestContext,
) => write(store, ctx, 'issueInvoice', req, (tenantId) => planIssueInvoice(store, keys, tenantId, req, ctx));

export const voidInvoice = ({ store }: InvoiceDeps, req: billing.VoidInvoiceRequest, ctx: RequestContext) =>
  write(store, ctx, 'voidInvoice', req, (tenantId) => planVoidInvoice(store, tenantId, req, ctx));

/**
 * The platform's side only (portal member or payment provider). The request's opId (the
 * provider's payment id, say) keys the write when the context carries no key, so a provider that
 * reports the same payment twice records it once.
 */
export async function recordPayment(
  { store }: InvoiceDeps,
  req: billing.RecordPaymentRequest,
  ctx: RequestContext,
) {
  assertMayRecordPayment(ctx);
  const keyed = { ...ctx, idempotencyKey: ctx.idempotencyKey || cleanText(req.opId) || '' };
  return write(store, keyed, 'recordPayment', req, (tenantId) =>
    planRecordPayment(store, tenantId, req, keyed),
  );
}
