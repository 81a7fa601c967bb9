// The WebhookService RPCs as plain async functions of (request, ctx). The gRPC binding is one
// line (server.ts); tests call the same functions directly.
import { WEBHOOK_EVENT_TYPES } from '@fieldops/contracts';
import { handlersOf, type DomainHandlers } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import { webhooks } from '@fieldops/proto';
import { listDeliveries, retryDelivery } from './deliveries/deliveries.service.ts';
import * as subscriptions from './subscriptions/subscriptions.service.ts';

export type WebhookHandlers = DomainHandlers<webhooks.WebhookServiceService>;

export interface WebhookDeps {
  /** Lets targets on private, loopback or link-local addresses be saved (tests, local development). */
  allowPrivate: boolean;
  /** Subscriptions one tenant may hold (FIELDOPS_WEBHOOK_MAX_SUBSCRIPTIONS). */
  maxSubscriptions: number;
  /** Nudges the dispatcher after a manual retry. */
  wake?: () => void;
}

const eventTypes: webhooks.EventTypeList = {
  items: WEBHOOK_EVENT_TYPES.map((entry) => ({
    type: entry.type,
    service: entry.service,
    summary: entry.summary,
    named: entry.named === true,
  })),
};

export function createWebhookHandlers(store: DocumentStore, deps: WebhookDeps): WebhookHandlers {
  const plan = { store, allowPrivate: deps.allowPrivate, maxSubscriptions: deps.maxSubscriptions };
  const delivery = { store, wake: () => deps.wake?.() };
  // Subscriptions are derived from their module; the catalogue and deliveries need other deps.
  return handlersOf(webhooks.WebhookServiceService, plan, subscriptions, {
    listEventTypes: async () => eventTypes,
    listDeliveries: (request, ctx) => listDeliveries(delivery, request, ctx),
    retryDelivery: (request, ctx) => retryDelivery(delivery, request, ctx),
  });
}
