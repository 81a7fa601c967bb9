// Webhooks (ENDPOINTS rows 79–86, plus rotating a subscription's secret): subscriptions, their
// delivery log with manual retry, and the event-type catalogue. Served by webhooks.WebhookService.
// How deliveries are signed and retried: docs/webhooks.md.
import { WEBHOOK_EVENT_TYPE_NAMES } from '@fieldops/contracts/webhook-event-types';
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import { idParams, opIdField, pageBody, pageQuery, pageRequest, pageResponse } from './common.schemas.js';
import { defineEndpoint, type EndpointDef } from './types.js';
import { writeResult } from './write-result.js';

const eventTypeName = z.enum(WEBHOOK_EVENT_TYPE_NAMES as [string, ...string[]]);

const webhookFields = {
  url: z.string().trim().min(1).max(2000).describe('https (or http) URL deliveries are POSTed to.'),
  description: z.string().max(500),
  eventTypes: z
    .array(eventTypeName)
    .min(1)
    .max(WEBHOOK_EVENT_TYPE_NAMES.length)
    .describe('Event types to deliver (GET /event-types). Omitted on create: every type.'),
};

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.string()).describe('Empty: every event type.'),
  status: z.enum(['enabled', 'disabled']),
  disabledReason: z
    .string()
    .describe('gone (the endpoint answered 410), failing (failed for the whole retry schedule) or manual.'),
  disabledAt: z.string(),
  secretHint: z.string().describe('whsec_… and the last four characters of the signing secret.'),
  previousSecretExpiresAt: z.string().describe('After a rotation: until then the old secret also signs.'),
  throttledUntil: z.string().describe('The endpoint answered 429: nothing is sent before this time.'),
  createdAt: z.string(),
  updatedAt: z.string(),
  etag: z.string(),
  opId: z.string(),
});

const secretField = z
  .string()
  .describe('The signing secret (Standard Webhooks whsec_ format). Shown in this answer only, never again.');

const deliverySchema = z.object({
  id: z.string(),
  subscriptionId: z.string(),
  eventId: z.string().describe('Also the webhook-id header: the same on every attempt.'),
  eventType: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attemptCount: z.number().int(),
  nextAttemptAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  attempts: z.array(
    z.object({
      at: z.string(),
      statusCode: z.number().int().describe('0 when no HTTP answer came.'),
      error: z.string(),
      durationMs: z.number().int(),
      trigger: z.enum(['scheduled', 'manual']),
    }),
  ),
});

const webhookParams = z.strictObject({ id: z.string().min(1).max(100) });
const deliveryParams = z.strictObject({
  id: z.string().min(1).max(100),
  deliveryId: z.string().min(1).max(100),
});

const SETTINGS_READ = { action: 'read', kind: 'settings' } as const;
const SETTINGS_CREATE = { action: 'create', kind: 'settings' } as const;
const SETTINGS_UPDATE = { action: 'update', kind: 'settings' } as const;

const WRITE_ERRORS = [
  'invalid_json',
  'invalid_body',
  'field_required',
  'field_invalid',
  'field_invalid_enum',
] as const;

export const webhookEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'listEventTypes',
    method: 'GET',
    path: '/event-types',
    tag: 'Webhooks',
    summary: 'The event types a webhook subscription can receive, with what each one means.',
    auth: 'token',
    response: z.object({
      items: z.array(
        z.object({
          type: z.string(),
          service: z.string(),
          summary: z.string(),
          named: z.boolean().describe('One of the spec’s named events (lead captured, scene ready, …).'),
        }),
      ),
    }),
    errors: [],
    handle: async ({ ctx, clients }) => {
      const list = await callUnary(clients.webhooks, 'listEventTypes', {}, ctx);
      return { body: { items: list.items } };
    },
  }),
  defineEndpoint({
    operationId: 'listWebhooks',
    method: 'GET',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: "The tenant's webhook subscriptions, newest first (secrets are never shown).",
    auth: 'scope',
    scope: SETTINGS_READ,
    list: true,
    query: z.strictObject({ ...pageQuery }),
    response: pageResponse(webhookSchema),
    errors: ['field_invalid'],
    handle: async ({ query, ctx, clients }) => {
      const page = await callUnary(clients.webhooks, 'listSubscriptions', { page: pageRequest(query) }, ctx);
      return { body: pageBody(page) };
    },
  }),
  defineEndpoint({
    operationId: 'createWebhook',
    method: 'POST',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'Subscribe a URL to events; the answer shows the signing secret, once.',
    description:
      'The URL must not resolve to a private, loopback or link-local address (field_invalid) unless the operator allows it. Deliveries are signed per Standard Webhooks (docs/webhooks.md).',
    auth: 'scope',
    scope: SETTINGS_CREATE,
    idempotent: true,
    body: z.strictObject({
      url: webhookFields.url,
      description: webhookFields.description.optional(),
      eventTypes: webhookFields.eventTypes.optional(),
      opId: opIdField,
    }),
    response: z.object({ webhook: webhookSchema, secret: secretField, replayed: z.boolean().optional() }),
    errors: [...WRITE_ERRORS, 'unknown_field'],
    handle: async ({ body, ctx, clients }) => {
      const write = await callUnary(
        clients.webhooks,
        'createSubscription',
        { ...body, eventTypes: body.eventTypes ?? [] },
        ctx,
      );
      const result = writeResult('webhook', write.subscription, write.meta);
      result.body.secret = write.secret;
      return result;
    },
  }),
  defineEndpoint({
    operationId: 'getWebhook',
    method: 'GET',
    path: '/webhooks/:id',
    tag: 'Webhooks',
    summary: 'Read one webhook subscription (its secret is never shown again).',
    auth: 'scope',
    scope: SETTINGS_READ,
    params: idParams,
    response: z.object({ webhook: webhookSchema, etag: z.string() }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => {
      const webhook = await callUnary(clients.webhooks, 'getSubscription', { id: params.id }, ctx);
      return { body: { webhook, etag: webhook.etag }, etag: webhook.etag };
    },
  }),
  defineEndpoint({
    operationId: 'updateWebhook',
    method: 'PATCH',
    path: '/webhooks/:id',
    tag: 'Webhooks',
    summary:
      'Amend a subscription: its URL, description, event types, or enabled (false disables, true enables again).',
    auth: 'scope',
    scope: SETTINGS_UPDATE,
    params: webhookParams,
    amending: true,
    body: z.strictObject({
      url: webhookFields.url.optional(),
      description: webhookFields.description.optional(),
      eventTypes: webhookFields.eventTypes.optional(),
      enabled: z.boolean().optional().describe('false disables the endpoint; true enables it again.'),
    }),
    bodyRequiresOneOf: ['url', 'description', 'eventTypes', 'enabled'],
    response: z.object({ webhook: webhookSchema }),
    errors: ['not_found', ...WRITE_ERRORS, 'unknown_field', 'conflict'],
    handle: async ({ params, body, ifMatch, ctx, clients }) => {
      const write = await callUnary(
        clients.webhooks,
        'updateSubscription',
        {
          id: params.id,
          ifMatch,
          url: body.url,
          description: body.description,
          enabled: body.enabled,
          eventTypes: body.eventTypes ?? [],
          eventTypesSet: body.eventTypes !== undefined,
        },
        ctx,
      );
      return writeResult('webhook', write.subscription, write.meta);
    },
  }),
  defineEndpoint({
    operationId: 'deleteWebhook',
    method: 'DELETE',
    path: '/webhooks/:id',
    tag: 'Webhooks',
    summary:
      'Delete a subscription: nothing more is delivered to it, and its pending deliveries are dropped.',
    auth: 'scope',
    scope: SETTINGS_UPDATE,
    params: webhookParams,
    response: z.object({ webhook: webhookSchema, deleted: z.literal(true) }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => {
      const write = await callUnary(clients.webhooks, 'deleteSubscription', { id: params.id }, ctx);
      return { body: { webhook: write.subscription ?? {}, deleted: true } };
    },
  }),
  defineEndpoint({
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/webhooks/:id/rotate-secret',
    tag: 'Webhooks',
    summary:
      'Replace the signing secret; the answer shows the new one, once. The old one keeps signing for 24 hours.',
    description:
      'During the overlap every delivery carries two signatures (one per secret) in webhook-signature, so receivers can switch without missing a delivery.',
    auth: 'scope',
    scope: SETTINGS_UPDATE,
    params: webhookParams,
    response: z.object({ webhook: webhookSchema, secret: secretField }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => {
      const write = await callUnary(clients.webhooks, 'rotateSecret', { id: params.id }, ctx);
      const result = writeResult('webhook', write.subscription, write.meta);
      result.body.secret = write.secret;
      return result;
    },
  }),
  defineEndpoint({
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/webhooks/:id/deliveries',
    tag: 'Webhooks',
    summary: "A subscription's delivery log, newest first: every event sent, each attempt and its answer.",
    auth: 'scope',
    scope: SETTINGS_READ,
    params: webhookParams,
    list: true,
    query: z.strictObject({ ...pageQuery, status: z.enum(['pending', 'succeeded', 'failed']).optional() }),
    response: pageResponse(deliverySchema),
    errors: ['not_found', 'field_invalid', 'field_invalid_enum'],
    handle: async ({ params, query, ctx, clients }) => {
      const page = await callUnary(
        clients.webhooks,
        'listDeliveries',
        { subscriptionId: params.id, page: pageRequest(query), status: query.status },
        ctx,
      );
      return { body: pageBody(page) };
    },
  }),
  defineEndpoint({
    operationId: 'retryWebhookDelivery',
    method: 'POST',
    path: '/webhooks/:id/deliveries/:deliveryId/retry',
    tag: 'Webhooks',
    summary:
      'Send a delivery again now (one attempt for a finished delivery); 409 while the subscription is disabled.',
    auth: 'scope',
    scope: SETTINGS_UPDATE,
    params: deliveryParams,
    accepted: true,
    response: z.object({ delivery: deliverySchema }),
    errors: ['not_found', 'conflict'],
    handle: async ({ params, ctx, clients }) => {
      const write = await callUnary(
        clients.webhooks,
        'retryDelivery',
        { subscriptionId: params.id, deliveryId: params.deliveryId },
        ctx,
      );
      const result = writeResult('delivery', write.delivery, write.meta);
      return { ...result, status: 202 };
    },
  }),
];
