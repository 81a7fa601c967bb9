// GET /api/v1/webhooks, POST /api/v1/webhooks: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./webhooks.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField, pageBody, pageQuery, pageRequest, pageResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import { assertReadableEventTypes, grantOf } from '../../endpoint/webhook-grant.ts';
import {
  webhookFields,
  webhookSchema,
  secretField,
  SETTINGS_READ,
  SETTINGS_CREATE,
} from './webhooks.schemas.ts';

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
    "The URL must not resolve to a private, loopback or link-local address (field_invalid) unless the operator allows it. Deliveries are signed per Standard Webhooks (docs/webhooks.md). The subscription is held to what the calling token may read: an event type it may not read is 403 (out_of_scope or role_denied, naming the type and the scope), deliveries of a project-restricted token are its projects' events only, and revoking the token disables the subscription. A tenant holds at most FIELDOPS_WEBHOOK_MAX_SUBSCRIPTIONS subscriptions (default 25; 409 conflict past it).",
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
  handle: async ({ body, ctx, caller, clients }) => {
    assertReadableEventTypes(caller, body.eventTypes);
    const write = await callUnary(
      clients.webhooks,
      'createSubscription',
      { ...body, eventTypes: body.eventTypes ?? [], grant: grantOf(caller) },
      ctx,
    );
    const result = writeResult('webhook', write.subscription, write.meta);
    result.body.secret = write.secret;
    return result;
  },
});
