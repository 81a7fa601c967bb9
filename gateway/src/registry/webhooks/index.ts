// Webhooks (ENDPOINTS rows 79–86, plus rotating a subscription's secret): subscriptions, their
// delivery log with manual retry, and the event-type catalogue. Served by webhooks.WebhookService.
// How deliveries are signed and retried: docs/webhooks.md.
// Every endpoint of the group, in registry order: one file per path, named after it.
import { listEventTypes } from './event-types.js';
import { listWebhooks, createWebhook } from './webhooks.js';
import { getWebhook, updateWebhook, deleteWebhook } from './webhooks.id.js';
import { rotateWebhookSecret } from './webhooks.id.rotate-secret.js';
import { listWebhookDeliveries } from './webhooks.id.deliveries.js';
import { retryWebhookDelivery } from './webhooks.id.deliveries.deliveryId.retry.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const webhookEndpoints: EndpointDef[] = [
  listEventTypes,
  listWebhooks,
  createWebhook,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  listWebhookDeliveries,
  retryWebhookDelivery,
];
