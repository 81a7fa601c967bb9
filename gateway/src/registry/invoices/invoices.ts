// GET /api/v1/invoices, POST /api/v1/invoices: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./invoices.schemas.ts; listed by ../families.gen.ts.
import { INVOICE_STATUSES, BILLING_DOCUMENT_FIELD_LIMITS } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import {
  billingListRequest,
  createDraftEndpoint,
  listDocumentsEndpoint,
  draftOwnerFields,
} from '../../endpoint/billing-documents.ts';
import { email, lineInputs, notes, title } from '../../endpoint/billing.schemas.ts';
import { opIdField, pageBody } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { dueDate, INVOICE, invoiceResult } from './invoices.schemas.ts';

export const listInvoices = defineEndpoint({
  ...listDocumentsEndpoint(INVOICE, '/invoices', INVOICE_STATUSES),
  operationId: 'listInvoices',
  summary: 'List invoices, newest first, filtered by status, customer or deal.',
  handle: async ({ query, ctx, clients }) => {
    const page = await callUnary(clients.invoices, 'listInvoices', billingListRequest(query), ctx);
    return { body: pageBody(page) };
  },
});

export const createInvoice = defineEndpoint({
  ...createDraftEndpoint(INVOICE, '/invoices'),
  operationId: 'createInvoice',
  summary: 'Draft an invoice. A draft asks nobody for anything: no email, no payment page, no number.',
  description:
    "Lines come from the body, from a signed proposal (proposalId), or, with a deal alone, from the deal's signed proposal. The server computes every amount and total; amounts, totals, currency, payments and status are refused as unknown fields.",
  body: z.strictObject({
    ...draftOwnerFields,
    proposalId: z.string().trim().min(1).max(BILLING_DOCUMENT_FIELD_LIMITS.proposalId).optional(),
    title: title.optional(),
    lines: lineInputs.optional(),
    notes: notes.optional(),
    recipientEmail: email
      .optional()
      .describe("Who the payment page is emailed to; default the customer's email."),
    dueDate: dueDate.optional(),
    opId: opIdField,
  }),
  handle: async ({ body, ctx, clients }) =>
    invoiceResult(
      await callUnary(clients.invoices, 'createInvoice', { ...body, lines: body.lines ?? [] }, ctx),
    ),
});
