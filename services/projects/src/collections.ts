// The projects service's collections in its own document store. Every query the service makes is
// listed here as an index, so the MongoDB adapter can build them and nothing scans a tenant.
import type { CollectionSpec, DocumentStore } from '@fieldops/kit/store';
import { idempotencyCollectionSpec } from '@fieldops/kit/write';

export const PROJECTS = 'projects';
export const SITES = 'sites';
export const PROJECT_RECORDS = 'project_records';
/** Per customer, the newest crm version of it the customer-names projection has applied. */
export const CUSTOMER_NAME_MARKS = 'customer_name_marks';
/** Keys that sign client page links, in the platform namespace. */
export const PAGE_KEYS = 'page_keys';

export const PROJECTS_COLLECTIONS: readonly CollectionSpec[] = [
  {
    name: PROJECTS,
    // The list is newest-updated first, filtered by status, vertical or customer; updatedSince
    // is a range on the sort field. q is a substring scan within the tenant's projects.
    indexes: [['updatedAt'], ['status', 'updatedAt'], ['vertical', 'updatedAt'], ['customerId', 'updatedAt']],
  },
  { name: SITES, indexes: [['customerId', 'createdAt']] },
  {
    name: PROJECT_RECORDS,
    // Lists are per project and kind, newest first; voidedAt hides retracted ones.
    indexes: [
      ['projectId', 'kind', 'createdAt'],
      ['projectId', 'kind', 'voidedAt', 'createdAt'],
    ],
  },
  { name: PAGE_KEYS },
  { name: CUSTOMER_NAME_MARKS },
  idempotencyCollectionSpec,
];

export async function defineProjectsCollections(store: DocumentStore): Promise<void> {
  for (const spec of PROJECTS_COLLECTIONS) await store.define(spec);
}
