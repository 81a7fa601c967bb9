// Invoices (spec: "Proposals and invoices", Operations left open 2; ENDPOINTS rows 55–59).
// Served by crm.InvoiceService. No endpoint pays or refunds (spec: those are human acts): payments
// are recorded by the platform's own side (a member in the portal, the payment provider).
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { INVOICE_STATUS_MACHINE } from '@fieldops/contracts';
import { z } from 'zod';
import { billingWriteResult, type BillingDocument } from '../../endpoint/billing-documents.ts';
import { invoiceSchema } from './invoices.gen.ts';

export const dueDate = z.iso.date().describe('The calendar day payment is due, YYYY-MM-DD.');

// The invoice's shape is derived from billing.proto (npm run gen); what differs over HTTP is here.
export { invoiceSchema };

export const INVOICE: BillingDocument = {
  name: 'invoice',
  path: '/invoices',
  tag: 'Invoices',
  schema: invoiceSchema,
  moves: INVOICE_STATUS_MACHINE.moves,
};

export const invoiceResult = (write: { invoice?: object } & Parameters<typeof billingWriteResult>[2]) =>
  billingWriteResult(INVOICE, write.invoice, write);
