// What the single customer read shows beside the customer. Deals, proposals and invoices are
// crm collections that do not exist yet; projects and captures belong to other services and will
// come from projections fed by their events. Until then the lists are empty and the rollup is
// zero — in the tenant's currency, so the shape a client reads never changes when they arrive.
import type { crm } from '@fieldops/proto';

export const noRelatedRecords = (): crm.RelatedRecords => ({
  deals: [],
  projects: [],
  captures: [],
  proposals: [],
  invoices: [],
});

export const zeroRollup = (currency: string): crm.MoneyRollup => ({
  currency,
  openDealsCents: 0,
  wonCents: 0,
  invoicedCents: 0,
  paidCents: 0,
  outstandingCents: 0,
});
