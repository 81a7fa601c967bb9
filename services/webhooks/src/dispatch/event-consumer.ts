// Turns the event log into deliveries. For every event of a catalogued type, one delivery per
// subscription that wants it is created, with an id derived from the event and the subscription,
// and queued. The offset is committed only after that, so a crash redelivers the event, and the
// derived id makes the second creation a no-op: each delivery exists exactly once.
import {
  EVENT_TOPICS,
  WEBHOOK_DELIVERY_STATUS_MACHINE,
  WEBHOOK_SUBSCRIPTION_STATUS_MACHINE,
  isWebhookEventType,
} from '@fieldops/contracts';
import {
  followFromStart,
  projectOf,
  type DomainEvent,
  type EventLog,
  type Subscription,
} from '@fieldops/kit/events';
import { StoreConflict, type DocumentStore } from '@fieldops/kit/store';
import { DELIVERIES, SUBSCRIPTIONS } from '../collections.ts';
import { deliveryIdOf, type DeliveryDoc } from '../deliveries/delivery.model.ts';
import { disableHeldTo, REVOKED_EVENT } from '../subscriptions/credential-revocation.ts';
import { wants, type SubscriptionDoc } from '../subscriptions/subscription.model.ts';
import { enqueue } from '../deliveries/dispatch-queue.ts';
import { isDeliverableEvent, webhookPayload } from './payload.ts';

/** The dispatcher's own consumer group: its offsets are independent of the audit ledger's. */
export const WEBHOOKS_GROUP = 'webhooks-dispatcher';

async function ensureDelivery(
  store: DocumentStore,
  event: DomainEvent,
  subscription: SubscriptionDoc,
  projectId: string | null,
) {
  const id = deliveryIdOf(event.id, subscription.id);
  const now = new Date().toISOString();
  const doc: DeliveryDoc = {
    id,
    tenantId: event.tenantId,
    version: 1,
    subscriptionId: subscription.id,
    eventId: event.id,
    eventType: event.type,
    projectId,
    payload: webhookPayload(event),
    status: WEBHOOK_DELIVERY_STATUS_MACHINE.initial,
    attemptCount: 0,
    attempts: [],
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await store.commit(event.tenantId, [{ op: 'insert', collection: DELIVERIES, doc }]);
  } catch (error) {
    // Already created by an earlier pass over this event: queue it again below, nothing else.
    if (!(error instanceof StoreConflict)) throw error;
    const existing = await store.get<DeliveryDoc>(DELIVERIES, event.tenantId, id);
    if (existing?.status !== WEBHOOK_DELIVERY_STATUS_MACHINE.initial) return;
  }
  await enqueue(store, event.tenantId, id, now);
}

export async function deliverEvent(store: DocumentStore, event: DomainEvent): Promise<number> {
  if (!isWebhookEventType(event.type)) return 0;
  const subscriptions = await store.find<SubscriptionDoc>(SUBSCRIPTIONS, event.tenantId, {
    status: WEBHOOK_SUBSCRIPTION_STATUS_MACHINE.destination('enable'),
  });
  const facts = { type: event.type, occurredAt: event.occurredAt, projectId: projectOf(event) };
  const matching = subscriptions.filter((subscription) => wants(subscription, facts));
  for (const subscription of matching) await ensureDelivery(store, event, subscription, facts.projectId);
  return matching.length;
}

export async function startEventConsumer(options: {
  log: EventLog;
  store: DocumentStore;
  /** Called after an event produced deliveries, so they go out at once. */
  onDeliveries: () => void;
}): Promise<Subscription> {
  const { log, store, onDeliveries } = options;
  // Subscriptions only take events from after their creation (wants()), so reading from the
  // beginning loses nothing and sends nothing old.
  return followFromStart(log, {
    group: WEBHOOKS_GROUP,
    topics: [...EVENT_TOPICS],
    handle: async (record) => {
      // Anything that is not a domain event is not for subscribers; the audit ledger reports it.
      if (!isDeliverableEvent(record.value)) return;
      // A revoked token's subscriptions stop delivering (the gateway's identity events are on the log).
      if (record.value.type === REVOKED_EVENT) return void (await disableHeldTo(store, record.value));
      if ((await deliverEvent(store, record.value)) > 0) onDeliveries();
    },
  });
}
