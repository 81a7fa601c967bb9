// The webhooks service's collections in its own document store. Subscriptions and deliveries
// live in the tenant's namespace; the dispatch queue lives in the platform namespace because the
// dispatcher looks for due work across every tenant at once.
import type { CollectionSpec, DocumentStore } from '@fieldops/kit/store';
import { idempotencyCollectionSpec } from '@fieldops/kit/write';

export const SUBSCRIPTIONS = 'webhook_subscriptions';
/** One document per event × subscription; its id is derived from both, so it is created once. */
export const DELIVERIES = 'webhook_deliveries';
/** One entry per pending delivery (platform namespace): when the dispatcher should look at it. */
export const DISPATCH_QUEUE = 'webhook_dispatch_queue';

export const WEBHOOK_COLLECTIONS: readonly CollectionSpec[] = [
  { name: SUBSCRIPTIONS, indexes: [['createdAt'], ['status', 'createdAt']] },
  {
    name: DELIVERIES,
    indexes: [
      ['subscriptionId', 'createdAt'],
      ['subscriptionId', 'status', 'createdAt'],
    ],
  },
  { name: DISPATCH_QUEUE, indexes: [['dueAt']] },
  idempotencyCollectionSpec,
];

export async function defineWebhookCollections(store: DocumentStore): Promise<void> {
  for (const spec of WEBHOOK_COLLECTIONS) await store.define(spec);
}
