import { itemJson, listRpcOf, NEWEST_FIRST, getOrNotFound } from '@fieldops/kit/domain';
import type { RequestContext } from '@fieldops/kit';
import { outcomeWriteRpcOf, requireTenantId } from '@fieldops/kit/write';
import { webhooks } from '@fieldops/proto';
import { SUBSCRIPTIONS } from '../collections.ts';
import {
  planCreateSubscription,
  planDeleteSubscription,
  planRotateSecret,
  planUpdateSubscription,
  type PlanDeps,
} from './subscription-write.plans.ts';
import { toSubscriptionView, type SubscriptionDoc } from './subscription.model.ts';

/** A subscription in items_json; one function for the process, so the store remembers its renderings. */
const SUBSCRIPTION_JSON = itemJson(toSubscriptionView, webhooks.Subscription);

/** Every subscription of the tenant, newest first. */
export const listSubscriptions = listRpcOf<
  PlanDeps,
  webhooks.ListSubscriptionsRequest,
  SubscriptionDoc,
  webhooks.Subscription
>(SUBSCRIPTIONS, { sort: NEWEST_FIRST }, toSubscriptionView, SUBSCRIPTION_JSON);

export async function getSubscription(
  deps: PlanDeps,
  req: webhooks.GetSubscriptionRequest,
  ctx: RequestContext,
): Promise<webhooks.Subscription> {
  const doc = await getOrNotFound<SubscriptionDoc>(
    deps.store,
    SUBSCRIPTIONS,
    requireTenantId(ctx),
    req.id,
    'webhook subscription',
  );
  return toSubscriptionView(doc);
}

export const createSubscription = outcomeWriteRpcOf('createWebhook', planCreateSubscription);
export const updateSubscription = outcomeWriteRpcOf('updateWebhook', planUpdateSubscription);
export const deleteSubscription = outcomeWriteRpcOf('deleteWebhook', planDeleteSubscription);
export const rotateSecret = outcomeWriteRpcOf('rotateWebhookSecret', planRotateSecret);
