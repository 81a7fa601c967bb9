import { WEBHOOK_DELIVERY_STATUS_MACHINE, WEBHOOK_SUBSCRIPTION_STATUS_MACHINE } from '@fieldops/contracts';
import {
  eventEffect,
  updateEffect,
  itemJson,
  listRpcOf,
  NEWEST_FIRST,
  getOrNotFound,
} from '@fieldops/kit/domain';
import { type RequestContext, AppError, notFound, nowIso } from '@fieldops/kit';
import type { DocumentStore, Filter } from '@fieldops/kit/store';
import { requireTenantId, runWrite, type WritePlan } from '@fieldops/kit/write';
import { webhooks } from '@fieldops/proto';
import { DELIVERIES, SUBSCRIPTIONS } from '../collections.ts';
import { enqueue } from './dispatch-queue.ts';
import { emitWebhooksEvent } from '../events.ts';
import type { SubscriptionDoc } from '../subscriptions/subscription.model.ts';
import { toDeliveryView, type DeliveryDoc } from './delivery.model.ts';

/** A delivery in items_json; one function for the process, so the store remembers its renderings. */
const DELIVERY_JSON = itemJson(toDeliveryView, webhooks.Delivery);

export interface DeliveryDeps {
  store: DocumentStore;
  /** Nudges the dispatcher so a manual retry goes out at once rather than at its next poll. */
  wake?: () => void;
}

async function loadSubscription(
  store: DocumentStore,
  tenantId: string,
  id: string,
): Promise<SubscriptionDoc> {
  const doc = await getOrNotFound<SubscriptionDoc>(
    store,
    SUBSCRIPTIONS,
    tenantId,
    id,
    'webhook subscription',
  );
  return doc;
}

/** The deliveries of one subscription of the tenant (404 for another's), by status if sent. */
async function deliveryFilter(
  req: webhooks.ListDeliveriesRequest,
  _ctx: RequestContext,
  deps: DeliveryDeps,
  tenantId: string,
): Promise<Filter> {
  await loadSubscription(deps.store, tenantId, req.subscriptionId);
  const filter: Filter = { subscriptionId: req.subscriptionId };
  if (req.status) filter['status'] = req.status;
  return filter;
}

/** Newest first. */
export const listDeliveries = listRpcOf(
  DELIVERIES,
  { filter: deliveryFilter, sort: NEWEST_FIRST },
  toDeliveryView,
  DELIVERY_JSON,
);

async function planRetry(
  store: DocumentStore,
  tenantId: string,
  req: webhooks.RetryDeliveryRequest,
  ctx: RequestContext,
): Promise<WritePlan<webhooks.Delivery>> {
  const subscription = await loadSubscription(store, tenantId, req.subscriptionId);
  const doc = await store.get<DeliveryDoc>(DELIVERIES, tenantId, req.deliveryId);
  if (!doc || doc.subscriptionId !== subscription.id) throw notFound('delivery', req.deliveryId);
  if (subscription.status !== WEBHOOK_SUBSCRIPTION_STATUS_MACHINE.destination('enable')) {
    throw new AppError(
      'conflict',
      `Webhook subscription ${subscription.id} is disabled (${subscription.disabledReason ?? 'manual'}); enable it with PATCH /webhooks/${subscription.id} {"enabled": true} before retrying a delivery.`,
      { status: subscription.status, disabledReason: subscription.disabledReason ?? '' },
    );
  }
  const now = nowIso();
  const next: DeliveryDoc = {
    ...doc,
    version: doc.version + 1,
    status: WEBHOOK_DELIVERY_STATUS_MACHINE.destination('retry'),
    // A delivery still on its schedule keeps it; a finished one gets exactly one more attempt.
    manual: doc.status === WEBHOOK_DELIVERY_STATUS_MACHINE.initial ? (doc.manual ?? false) : true,
    nextAttemptAt: now,
    updatedAt: now,
  };
  const changes = [{ field: 'status', from: doc.status, to: next.status }];
  return {
    ops: [
      { op: 'replace', collection: DELIVERIES, doc: next, expectedVersion: doc.version },
      emitWebhooksEvent(
        ctx,
        'webhook_delivery.retried',
        { kind: 'webhook_delivery', id: doc.id },
        {
          subscriptionId: subscription.id,
          eventId: doc.eventId,
        },
      ),
    ],
    result: toDeliveryView(next),
    created: false,
    rehearsal: {
      willDo: `Send event ${doc.eventId} to ${subscription.url} again now.`,
      effects: [
        updateEffect('webhook_delivery', doc.id, changes),
        eventEffect('webhook_delivery.retried', doc.id),
      ],
    },
  };
}

/** POST /webhooks/:id/deliveries/:deliveryId/retry: the delivery is due now. */
export async function retryDelivery(
  deps: DeliveryDeps,
  req: webhooks.RetryDeliveryRequest,
  ctx: RequestContext,
): Promise<webhooks.DeliveryWrite> {
  const tenantId = requireTenantId(ctx);
  const { result, meta } = await runWrite(deps.store, ctx, {
    operation: 'retryWebhookDelivery',
    fingerprint: req,
    plan: () => planRetry(deps.store, tenantId, req, ctx),
  });
  // After the commit: a crash in between leaves the delivery pending without an entry, and the
  // caller (who got no answer) retries, which enqueues it then.
  if (!ctx.dryRun) {
    await enqueue(deps.store, tenantId, result.id, nowIso());
    deps.wake?.();
  }
  return { delivery: result, meta };
}
