// The crm domain: its collections and its RPC handlers, opened on the store it owns.
import type { DocumentStore } from '@fieldops/kit/store/port';
import { defineCrmCollections } from './collections.js';
import { createCrmHandlers } from './handlers.js';
import type { CrmHandlers } from './handlers.js';

export async function openCrmDomain({ store }: { store: DocumentStore }): Promise<CrmHandlers> {
  await defineCrmCollections(store);
  return createCrmHandlers(store);
}

export { createCrmHandlers } from './handlers.js';
export type { CrmHandlers } from './handlers.js';
export { CRM_COLLECTIONS, defineCrmCollections } from './collections.js';
export { LEAD_STATUS_MACHINE, LEAD_STATUSES, nextStatuses, canMove, convertible } from '@fieldops/contracts';
export { CUSTOMER_STAGE_MACHINE, CUSTOMER_STAGES, nextStages, canMoveStage } from '@fieldops/contracts';
export { LEAD_SCORE_WEIGHTS, MAX_LEAD_SCORE, leadScore } from './leads/lead-score.js';
