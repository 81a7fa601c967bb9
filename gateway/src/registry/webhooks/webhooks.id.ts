// GET /api/v1/webhooks/:id,
// PATCH /api/v1/webhooks/:id,
// DELETE /api/v1/webhooks/:id:
// declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./webhooks.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { assertReadableEventTypes, grantOf } from '../../endpoint/webhook-grant.ts';
import { z } from 'zod';
import { idParams } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import {
  webhookFields,
  webhookSchema,
  webhookParams,
  SETTINGS_READ,
  SETTINGS_UPDATE,
} from './webhooks.schemas.ts';

export const getWebhook = defineEndpoint({
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
});

export const updateWebhook = defineEndpoint({
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
  errors: ['not_found'],
  handle: async ({ params, body, ifMatch, ctx, caller, clients }) => {
    assertReadableEventTypes(caller, body.eventTypes);
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
        grant: grantOf(caller),
      },
      ctx,
    );
    return writeResult('webhook', write.subscription, write.meta);
  },
});

export const deleteWebhook = defineEndpoint({
  operationId: 'deleteWebhook',
  method: 'DELETE',
  path: '/webhooks/:id',
  tag: 'Webhooks',
  summary: 'Delete a subscription: nothing more is delivered to it, and its pending deliveries are dropped.',
  auth: 'scope',
  scope: SETTINGS_UPDATE,
  params: webhookParams,
  response: z.object({ webhook: webhookSchema, deleted: z.literal(true) }),
  errors: ['not_found'],
  handle: async ({ params, ctx, clients }) => {
    const write = await callUnary(clients.webhooks, 'deleteSubscription', { id: params.id }, ctx);
    return { body: { webhook: write.subscription ?? {}, deleted: true } };
  },
});
