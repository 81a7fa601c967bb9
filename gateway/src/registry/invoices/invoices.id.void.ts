// POST /api/v1/invoices/:id/void: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./invoices.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { documentActionEndpoint } from '../../endpoint/billing-documents.ts';
import { reason } from '../../endpoint/billing.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { INVOICE, invoiceResult } from './invoices.schemas.ts';

export const voidInvoice = defineEndpoint({
  ...documentActionEndpoint(INVOICE, '/invoices/:id/void'),
  operationId: 'voidInvoice',
  summary: 'Void an invoice nobody has paid anything on; its payment page stops working.',
  description: 'An invoice with a payment recorded cannot be voided: returning money is a human act.',
  body: z.strictObject({ reason }),
  handle: async ({ params, body, ctx, clients }) =>
    invoiceResult(
      await callUnary(clients.invoices, 'voidInvoice', { id: params.id, reason: body.reason }, ctx),
    ),
});
