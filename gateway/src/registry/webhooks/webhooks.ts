// GET /api/v1/webhooks, POST /api/v1/webhooks: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./webhooks.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField, pageBody, pageQuery, pageRequest, pageResponse } from '../../endpoint/common.schemas.js';
import { defineEndpoint } from '../../endpoint/types.js';
import { writeResult } from '../write-result.js';
import {
  webhookFields,
  webhookSchema,
  secretField,
  SETTINGS_READ,
  SETTINGS_CREATE,
} from './webhooks.schemas.js';

export const listWebhooks = defineEndpoint({
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
  handle: async ({ query, ctx, clients }) => {
    const page = await callUnary(clients.webhooks, 'listSubscriptions', { page: pageRequest(query) }, ctx);
    return { body: pageBody(page) };
  },
});

export const createWebhook = defineEndpoint({
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
});
