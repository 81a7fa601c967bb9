// A customer's deals as the single customer read shows them: each deal as a related record, and
// the deal side of the money rollup (what the open deals are worth, what the customer agreed to).
// The stage sets come from the declared machine, so the rollup moves with it.
import { NEWEST_FIRST } from '@fieldops/kit/domain';
import { DEAL_STAGE_MACHINE } from '@fieldops/contracts';
import type { DocumentStore } from '@fieldops/kit/store';
import type { crm } from '@fieldops/proto';
import { DEALS } from '../collections.ts';
import type { DealDoc } from './deal.model.ts';

/** Newest first; the customer read lists at most this many (the sums cover every deal). */
export const CUSTOMER_DEALS_SHOWN = 100;

export interface CustomerDeals {
  related: crm.RelatedRecord[];
  /** Sum of the open deals' values, in `currency`. */
  openDealsCents: number;
  /** Sum of the values of deals the customer agreed to (won and every stage after it). */
  wonCents: number;
}

export async function customerDeals(
  store: DocumentStore,
  tenantId: string,
  customerId: string,
  currency: string,
): Promise<CustomerDeals> {
  const [shown, priced] = await Promise.all([
    store.find<DealDoc>(DEALS, tenantId, { customerId }, { sort: NEWEST_FIRST, limit: CUSTOMER_DEALS_SHOWN }),
    // Unpriced deals add nothing, so only priced ones in the tenant currency are read for the sums.
    store.find<DealDoc>(DEALS, tenantId, { customerId, valueCents: { $gt: 0 }, currency }),
  ]);
  return {
    related: shown.map(toRelatedRecord),
    openDealsCents: sumAt(priced, DEAL_STAGE_MACHINE.open),
    wonCents: sumAt(priced, DEAL_STAGE_MACHINE.won),
  };
}

const sumAt = (deals: readonly DealDoc[], stages: readonly string[]): number =>
  deals.filter((deal) => stages.includes(deal.stage)).reduce((sum, deal) => sum + deal.valueCents, 0);

const toRelatedRecord = (deal: DealDoc): crm.RelatedRecord => ({
  id: deal.id,
  kind: 'deal',
  status: deal.stage,
  value: { cents: deal.valueCents, currency: deal.currency },
  updatedAt: deal.updatedAt,
});
