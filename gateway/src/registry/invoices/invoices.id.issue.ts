// POST /api/v1/invoices/:id/issue: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./invoices.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { customerEmailActionEndpoint } from '../../endpoint/billing-documents.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { INVOICE, invoiceResult } from './invoices.schemas.ts';

export const issueInvoice = defineEndpoint({
  ...customerEmailActionEndpoint(INVOICE, '/invoices/:id/issue', 'binding'),
  operationId: 'issueInvoice',
  summary: 'Issue the invoice: number it and email the customer a live payment page. Needs confirmation.',
  description:
    "The first call answers 409 confirmation_required with willDo (summary, effect binding, the masked recipient and totalCents); re-send the identical request with x-service-confirm. Spends one from the token's emails budget. The invoice's deal moves to invoiced when its machine allows.",
  handle: async ({ params, body, ctx, clients }) =>
    invoiceResult(
      await callUnary(clients.invoices, 'issueInvoice', { id: params.id, message: body.message }, ctx),
    ),
});
