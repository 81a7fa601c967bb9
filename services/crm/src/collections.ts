// The crm service's collections in its own document store. Every query the service makes is
// listed here as an index, so the MongoDB adapter can build them and nothing scans a tenant.
import type { CollectionSpec, DocumentStore } from '@fieldops/kit/store/port';
import { idempotencyCollectionSpec } from '@fieldops/kit/write/index';

export const LEADS = 'leads';
export const CUSTOMERS = 'customers';
export const ACTIVITY = 'activity';
export const INBOUND_MESSAGES = 'inbound_messages';

export const CRM_COLLECTIONS: readonly CollectionSpec[] = [
  {
    name: LEADS,
    // openEmailKey is the normalized email, set only while the lead is open: the sparse unique
    // key allows one open lead per email per tenant, and any number of closed ones.
    unique: [['openEmailKey']],
    indexes: [['createdAt'], ['status', 'createdAt'], ['ownerId', 'createdAt']],
  },
  {
    name: CUSTOMERS,
    // emailKey finds the customer a new lead matches; customers may share an email, so not unique.
    indexes: [['createdAt'], ['stage', 'createdAt'], ['emailKey', 'createdAt']],
  },
  { name: ACTIVITY, indexes: [['subjectId', 'at']] },
  { name: INBOUND_MESSAGES, indexes: [['leadId', 'receivedAt']] },
  idempotencyCollectionSpec,
];

export async function defineCrmCollections(store: DocumentStore): Promise<void> {
  for (const spec of CRM_COLLECTIONS) await store.define(spec);
}
