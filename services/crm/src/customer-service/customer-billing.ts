// A customer's proposals and invoices as the single customer read shows them (related records),
// and the invoice side of its money rollup. Exported for customers.service.ts, which owns the
// read; invoices only count in the tenant's currency, so the rollup never adds two currencies.
import { INVOICE_STATUS_MACHINE } from '@fieldops/contracts';
import type { DocumentStore } from '@fieldops/kit/store';
import type { crm } from '@fieldops/proto';
import { INVOICES, PROPOSALS } from '../collections.ts';
import { balanceOf, type InvoiceDoc } from '../invoices/invoice.model.ts';
import { effectiveStatus, type ProposalDoc } from '../proposals/proposal.model.ts';

/** How many of each the customer read lists, newest first (the rollup counts them all). */
export const RELATED_BILLING_LIMIT = 50;

/** Invoices that bill the customer: issued (still owed) and paid. Drafts and voids bill nobody. */
const BILLED = [INVOICE_STATUS_MACHINE.triggers.issue.to, INVOICE_STATUS_MACHINE.triggers.settle.to];

export interface CustomerBilling {
  proposals: crm.RelatedRecord[];
  invoices: crm.RelatedRecord[];
  invoicedCents: number;
  paidCents: number;
  outstandingCents: number;
}

export async function customerBilling(
  store: DocumentStore,
  tenantId: string,
  customerId: string,
  currency: string,
): Promise<CustomerBilling> {
  const newest = { sort: { field: 'createdAt', direction: 'desc' as const } };
  const [proposals, invoices] = await Promise.all([
    store.find<ProposalDoc>(PROPOSALS, tenantId, { customerId }, { ...newest, limit: RELATED_BILLING_LIMIT }),
    store.find<InvoiceDoc>(INVOICES, tenantId, { customerId }, newest),
  ]);
  const billed = invoices.filter(
    (doc) => (BILLED as string[]).includes(doc.status) && doc.totals.currency === currency,
  );
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    proposals: proposals.map((doc) => ({
      id: doc.id,
      kind: 'proposal',
      status: effectiveStatus(doc),
      value: { cents: doc.totals.totalCents, currency: doc.totals.currency },
      updatedAt: doc.updatedAt,
      name: doc.title,
    })),
    invoices: invoices.slice(0, RELATED_BILLING_LIMIT).map((doc) => ({
      id: doc.id,
      kind: 'invoice',
      status: doc.status,
      value: { cents: doc.totals.totalCents, currency: doc.totals.currency },
      updatedAt: doc.updatedAt,
      name: doc.number ?? doc.title,
    })),
    invoicedCents: sum(billed.map((doc) => doc.totals.totalCents)),
    paidCents: sum(billed.map((doc) => doc.paidCents)),
    outstandingCents: sum(billed.map(balanceOf)),
  };
}
