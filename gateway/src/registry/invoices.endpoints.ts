// Invoices (spec: "Proposals and invoices", Operations left open 2; ENDPOINTS rows 55–59).
// Served by crm.InvoiceService. No endpoint pays or refunds (spec: those are human acts): payments
// are recorded by the platform's own side (a member in the portal, the payment provider).
import { INVOICE_STATUS_MOVES, INVOICE_STATUSES } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import {
  amendDraftEndpoint,
  amendDraftRequest,
  billingListRequest,
  billingReadResult,
  billingWriteResult,
  CONFIRMED_ACTION_ERRORS,
  createDraftEndpoint,
  customerEmailBody,
  documentActionEndpoint,
  listDocumentsEndpoint,
  readDocumentEndpoint,
  draftOwnerFields,
  DRAFT_ERRORS,
  type BillingDocument,
} from './billing-documents.js';
import { email, lineInputs, lineItem, notes, reason, title, totals } from './billing.schemas.js';
import { opIdField, pageBody } from './common.schemas.js';
import { REASON_MOVE_ERRORS } from './move-endpoint.js';
import { defineEndpoint, type EndpointDef } from './types.js';

const dueDate = z.iso.date().describe('The calendar day payment is due, YYYY-MM-DD.');

export const invoiceSchema = z.object({
  id: z.string(),
  number: z.string().optional().describe("Set when issued: the tenant's sequence, INV-000001."),
  customerId: z.string(),
  dealId: z.string().optional(),
  proposalId: z.string().optional(),
  title: z.string(),
  lines: z.array(lineItem),
  totals,
  status: z.enum(INVOICE_STATUSES),
  paidCents: z.number().int(),
  balanceCents: z.number().int(),
  payments: z.array(
    z.object({
      id: z.string(),
      amountCents: z.number().int(),
      method: z.string(),
      receivedAt: z.string(),
      reference: z.string().optional(),
      recordedBy: z.string(),
      recordedAt: z.string(),
    }),
  ),
  notes: z.string().optional(),
  recipientEmail: z.string().optional(),
  dueDate: z.string().optional(),
  issuedAt: z.string().optional(),
  paidAt: z.string().optional(),
  voidedAt: z.string().optional(),
  voidReason: z.string().optional(),
  etag: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  opId: z.string().optional(),
});

const INVOICE: BillingDocument = {
  name: 'invoice',
  path: '/invoices',
  tag: 'Invoices',
  schema: invoiceSchema,
  moves: INVOICE_STATUS_MOVES,
};

const invoiceResult = (write: { invoice?: object } & Parameters<typeof billingWriteResult>[2]) =>
  billingWriteResult(INVOICE, write.invoice, write);

export const invoiceEndpoints: EndpointDef[] = [
  defineEndpoint({
    ...listDocumentsEndpoint(INVOICE, INVOICE_STATUSES),
    operationId: 'listInvoices',
    summary: 'List invoices, newest first, filtered by status, customer or deal.',
    handle: async ({ query, ctx, clients }) => {
      const page = await callUnary(clients.invoices, 'listInvoices', billingListRequest(query), ctx);
      return { body: pageBody(page) };
    },
  }),
  defineEndpoint({
    ...readDocumentEndpoint(INVOICE),
    operationId: 'getInvoice',
    summary: 'Read one invoice with its lines, totals, payments, balance and legal triggers.',
    handle: async ({ params, ctx, clients }) => {
      const detail = await callUnary(clients.invoices, 'getInvoice', { id: params.id }, ctx);
      return billingReadResult(detail, detail.invoice);
    },
  }),
  defineEndpoint({
    ...createDraftEndpoint(INVOICE),
    operationId: 'createInvoice',
    summary: 'Draft an invoice. A draft asks nobody for anything: no email, no payment page, no number.',
    description:
      "Lines come from the body, from a signed proposal (proposalId), or, with a deal alone, from the deal's signed proposal. The server computes every amount and total; amounts, totals, currency, payments and status are refused as unknown fields.",
    body: z.strictObject({
      ...draftOwnerFields,
      proposalId: z.string().trim().min(1).max(100).optional(),
      title: title.optional(),
      lines: lineInputs.optional(),
      notes: notes.optional(),
      recipientEmail: email
        .optional()
        .describe("Who the payment page is emailed to; default the customer's email."),
      dueDate: dueDate.optional(),
      opId: opIdField,
    }),
    errors: [...DRAFT_ERRORS, 'conflict'],
    handle: async ({ body, ctx, clients }) => {
      const write = await callUnary(
        clients.invoices,
        'createInvoice',
        { ...body, lines: body.lines ?? [] },
        ctx,
      );
      return invoiceResult(write);
    },
  }),
  defineEndpoint({
    ...amendDraftEndpoint(INVOICE, {
      dueDate: dueDate.or(z.literal('')).optional().describe('An empty string clears it.'),
    }),
    operationId: 'updateInvoice',
    summary: 'Amend a draft invoice (If-Match); lines replace every line and the totals are recomputed.',
    description: 'Only a draft can be amended: an issued invoice is what the customer holds.',
    handle: async ({ params, body, ifMatch, ctx, clients }) => {
      const request = amendDraftRequest(params.id, body, ifMatch);
      return invoiceResult(await callUnary(clients.invoices, 'updateInvoice', request, ctx));
    },
  }),
  defineEndpoint({
    ...documentActionEndpoint(INVOICE, 'issue'),
    operationId: 'issueInvoice',
    summary: 'Issue the invoice: number it and email the customer a live payment page. Needs confirmation.',
    description:
      "The first call answers 409 confirmation_required with willDo (summary, effect binding, the masked recipient and totalCents); re-send the identical request with x-service-confirm. Spends one from the token's emails budget. The invoice's deal moves to invoiced when its machine allows.",
    confirm: { effect: 'binding' },
    budgets: [{ kind: 'emails', amount: 1 }],
    body: customerEmailBody,
    errors: CONFIRMED_ACTION_ERRORS,
    handle: async ({ params, body, ctx, clients }) => {
      const write = await callUnary(
        clients.invoices,
        'issueInvoice',
        { id: params.id, message: body.message },
        ctx,
      );
      return invoiceResult(write);
    },
  }),
  defineEndpoint({
    ...documentActionEndpoint(INVOICE, 'void'),
    operationId: 'voidInvoice',
    summary: 'Void an invoice nobody has paid anything on; its payment page stops working.',
    description: 'An invoice with a payment recorded cannot be voided: returning money is a human act.',
    body: z.strictObject({ reason }),
    errors: REASON_MOVE_ERRORS,
    handle: async ({ params, body, ctx, clients }) => {
      const write = await callUnary(
        clients.invoices,
        'voidInvoice',
        { id: params.id, reason: body.reason },
        ctx,
      );
      return invoiceResult(write);
    },
  }),
];
