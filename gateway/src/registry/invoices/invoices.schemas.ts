// Invoices (spec: "Proposals and invoices", Operations left open 2; ENDPOINTS rows 55–59).
// Served by crm.InvoiceService. No endpoint pays or refunds (spec: those are human acts): payments
// are recorded by the platform's own side (a member in the portal, the payment provider).
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { INVOICE_STATUSES, INVOICE_STATUS_MACHINE } from '@fieldops/contracts';
import { z } from 'zod';
import { billingWriteResult, type BillingDocument } from '../../endpoint/billing-documents.ts';
import { lineItem, totals } from '../../endpoint/billing.schemas.ts';

export const dueDate = z.iso.date().describe('The calendar day payment is due, YYYY-MM-DD.');

export const invoiceSchema = z
  .object({
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
  })
  .meta({ id: 'Invoice' });

export const INVOICE: BillingDocument = {
  name: 'invoice',
  path: '/invoices',
  tag: 'Invoices',
  schema: invoiceSchema,
  moves: INVOICE_STATUS_MACHINE.moves,
};

export const invoiceResult = (write: { invoice?: object } & Parameters<typeof billingWriteResult>[2]) =>
  billingWriteResult(INVOICE, write.invoice, write);
