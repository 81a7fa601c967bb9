// The crm domain: its collections and its RPC handlers, opened on the store it owns.
import type { DocumentStore } from '@fieldops/kit/store';
import { defineCrmCollections } from './collections.js';
import { createCrmHandlers, type CrmDeps, type CrmHandlers } from './handlers.js';

export async function openCrmDomain({
  store,
  ...deps
}: { store: DocumentStore } & CrmDeps): Promise<CrmHandlers> {
  await defineCrmCollections(store);
  return createCrmHandlers(store, deps);
}

export { createCrmHandlers } from './handlers.js';
export type { CrmHandlers } from './handlers.js';
export { createDealHandlers } from './handlers.js';
export type { CrmDeps, DealHandlers } from './handlers.js';
export { createBookingHandlers } from './handlers.js';
export type { BookingHandlers } from './handlers.js';
export { planDealTrigger } from './deals/deal-trigger.js';
export type { DealTriggerInput, DealTriggerPlan } from './deals/deal-trigger.js';
export { CRM_COLLECTIONS, defineCrmCollections } from './collections.js';
export { LEAD_STATUS_MACHINE, LEAD_STATUSES } from '@fieldops/contracts';
export { CUSTOMER_STAGE_MACHINE, CUSTOMER_STAGES } from '@fieldops/contracts';
export { LEAD_SCORE_WEIGHTS, MAX_LEAD_SCORE, leadScore } from './leads/lead-score.js';
