// An invoice as stored, and as the API and the customer see it.
import { INVOICE_STATUS_MACHINE, type InvoiceStatus } from '@fieldops/contracts';
import type { Doc } from '@fieldops/kit/store';
import type { billing } from '@fieldops/proto';
import { copyLines, type LineDoc } from '../billing/line-items.ts';
import type { BillingDocType } from '../billing/document-writes.ts';
import { INVOICES } from '../collections.ts';
import { etagOf, type Complete } from '@fieldops/kit/domain';

export interface InvoiceDoc extends Doc {
  customerId: string;
  dealId?: string;
  /** The signed proposal the lines were copied from. */
  proposalId?: string;
  title: string;
  lines: LineDoc[];
  totals: billing.Totals;
  status: InvoiceStatus;
  /** Sum of the payments recorded; the balance is totals.totalCents minus this. */
  paidCents: number;
  payments: billing.Payment[];
  notes?: string;
  recipientEmail?: string;
  /** A calendar date (YYYY-MM-DD): when the customer is asked to have paid. */
  dueDate?: string;
  /** INV-000001, taken from the tenant's sequence when issued (drafts have none). */
  number?: string;
  issuedAt?: string;
  paidAt?: string;
  voidedAt?: string;
  voidReason?: string;
  /** Matches the nonce inside the customer's payment-page link; cleared when voided. */
  linkNonce?: string;
  createdAt: string;
  updatedAt: string;
  opId?: string;
}

/** Fields whose changes are reported (rehearsal effects, events). */
export const INVOICE_CHANGE_FIELDS = [
  'title',
  'notes',
  'recipientEmail',
  'dueDate',
  'status',
  'subtotalCents',
  'taxCents',
  'totalCents',
  'lineCount',
  'paidCents',
] as const;

/** The flat fields diffFields compares (totals and lines reduced to figures a person reads). */
export function invoiceFacts(doc: InvoiceDoc): Record<(typeof INVOICE_CHANGE_FIELDS)[number], unknown> {
  return {
    title: doc.title,
    notes: doc.notes,
    recipientEmail: doc.recipientEmail,
    dueDate: doc.dueDate,
    status: doc.status,
    subtotalCents: doc.totals.subtotalCents,
    taxCents: doc.totals.taxCents,
    totalCents: doc.totals.totalCents,
    lineCount: doc.lines.length,
    paidCents: doc.paidCents,
  };
}

export const balanceOf = (doc: InvoiceDoc): number => doc.totals.totalCents - doc.paidCents;

export function toInvoiceView(doc: InvoiceDoc): billing.Invoice {
  return {
    id: doc.id,
    customerId: doc.customerId,
    dealId: doc.dealId,
    proposalId: doc.proposalId,
    title: doc.title,
    lines: copyLines(doc.lines),
    totals: { ...doc.totals },
    status: doc.status,
    paidCents: doc.paidCents,
    balanceCents: balanceOf(doc),
    payments: doc.payments.map((payment) => ({ ...payment })),
    notes: doc.notes,
    recipientEmail: doc.recipientEmail,
    dueDate: doc.dueDate,
    issuedAt: doc.issuedAt,
    paidAt: doc.paidAt,
    voidedAt: doc.voidedAt,
    voidReason: doc.voidReason,
    etag: etagOf(doc),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    opId: doc.opId,
    number: doc.number,
  } satisfies Complete<billing.Invoice>;
}

/** The triggers a caller may fire now; settle is the platform's (a payment), never the API's. */
export const invoiceTriggersNow = (doc: InvoiceDoc): string[] =>
  INVOICE_STATUS_MACHINE.legalTriggers(doc.status);

/** What the customer's payment page shows: the bill and its balance, no internal fields. */
export function toClientInvoice(doc: InvoiceDoc): billing.ClientInvoice {
  return {
    id: doc.id,
    title: doc.title,
    lines: copyLines(doc.lines),
    totals: { ...doc.totals },
    status: doc.status,
    paidCents: doc.paidCents,
    balanceCents: balanceOf(doc),
    dueDate: doc.dueDate,
    number: doc.number,
    notes: doc.notes,
  };
}

/** What an invoice write answers (and what a replay of it answers again). */
export interface InvoiceOutcome {
  invoice: billing.Invoice;
  dealMove?: billing.DealMove;
}

/** Invoices for the writes they share with proposals (billing/document-writes.ts). */
export const INVOICE_DOC: BillingDocType<InvoiceDoc, InvoiceOutcome> = {
  kind: 'invoice',
  collection: INVOICES,
  outcome: (doc) => ({ invoice: toInvoiceView(doc) }),
  created: 'invoice.created',
  updated: 'invoice.updated',
  view: toInvoiceView,
  amendable: (status: string) => INVOICE_STATUS_MACHINE.isIn('amendable', status),
  triggersNow: invoiceTriggersNow,
  facts: invoiceFacts,
  changeFields: INVOICE_CHANGE_FIELDS,
};
