// What the single customer read shows beside the customer: its deals, proposals and invoices as
// related records, and the money rollup over them, all in the tenant's currency. Deals and billing
// each compute their own side (deals/customer-deals.ts, billing/customer-billing.ts); projects and
// captures live in other services, so crm leaves them empty and the gateway's read fills them in.
import type { DocumentStore } from '@fieldops/kit/store';
import type { crm } from '@fieldops/proto';
import { customerBilling } from './customer-billing.ts';
import { customerDeals } from '../deals/customer-deals.ts';

export interface CustomerRelations {
  related: crm.RelatedRecords;
  rollup: crm.MoneyRollup;
}

export async function customerRelations(
  store: DocumentStore,
  tenantId: string,
  customerId: string,
  currency: string,
): Promise<CustomerRelations> {
  const [deals, billing] = await Promise.all([
    customerDeals(store, tenantId, customerId, currency),
    customerBilling(store, tenantId, customerId, currency),
  ]);
  return {
    related: {
      deals: deals.related,
      projects: [],
      captures: [],
      proposals: billing.proposals,
      invoices: billing.invoices,
    },
    rollup: {
      currency,
      openDealsCents: deals.openDealsCents,
      wonCents: deals.wonCents,
      invoicedCents: billing.invoicedCents,
      paidCents: billing.paidCents,
      outstandingCents: billing.outstandingCents,
    },
  };
}
