// GET /api/v1/invoices/:id, PATCH /api/v1/invoices/:id: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./invoices.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import {
  amendDraftEndpoint,
  amendDraftRequest,
  billingReadResult,
  readDocumentEndpoint,
} from '../../endpoint/billing-documents.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { dueDate, INVOICE, invoiceResult } from './invoices.schemas.ts';

export const getInvoice = defineEndpoint({
  ...readDocumentEndpoint(INVOICE, '/invoices/:id'),
  operationId: 'getInvoice',
  summary: 'Read one invoice with its lines, totals, payments, balance and legal triggers.',
  handle: async ({ params, ctx, clients }) => {
    const detail = await callUnary(clients.invoices, 'getInvoice', { id: params.id }, ctx);
    return billingReadResult(detail, detail.invoice);
  },
});

export const updateInvoice = defineEndpoint({
  ...amendDraftEndpoint(INVOICE, '/invoices/:id', {
    dueDate: dueDate.or(z.literal('')).optional().describe('An empty string clears it.'),
  }),
  operationId: 'updateInvoice',
  summary: 'Amend a draft invoice (If-Match); lines replace every line and the totals are recomputed.',
  description: 'Only a draft can be amended: an issued invoice is what the customer holds.',
  handle: async ({ params, body, ifMatch, ctx, clients }) => {
    const request = amendDraftRequest(params.id, body, ifMatch);
    return invoiceResult(await callUnary(clients.invoices, 'updateInvoice', request, ctx));
  },
});
