// The crm domain: its collections and its RPC handlers, opened on the store it owns.
import type { DocumentStore } from '@fieldops/kit/store';
import { defineCrmCollections } from './collections.ts';
import { createCrmHandlers, type CrmDeps, type CrmHandlers } from './handlers.ts';

export async function openCrmDomain({
  store,
  ...deps
}: { store: DocumentStore } & CrmDeps): Promise<CrmHandlers> {
  await defineCrmCollections(store);
  return createCrmHandlers(store, deps);
}

export { createCrmHandlers } from './handlers.ts';
export type { CrmHandlers } from './handlers.ts';
export { createDealHandlers } from './handlers.ts';
export type { CrmDeps, DealHandlers } from './handlers.ts';
export { createBookingHandlers } from './handlers.ts';
export type { BookingHandlers } from './handlers.ts';
export { planDealTrigger } from './deals/deal-trigger.ts';
export type { DealTriggerInput, DealTriggerPlan } from './deals/deal-trigger.ts';
export { CRM_COLLECTIONS, defineCrmCollections } from './collections.ts';
export { LEAD_STATUS_MACHINE, LEAD_STATUSES } from '@fieldops/contracts';
export { CUSTOMER_STAGE_MACHINE, CUSTOMER_STAGES } from '@fieldops/contracts';
export { LEAD_SCORE_WEIGHTS, MAX_LEAD_SCORE, leadScore } from './leads/lead-score.ts';
