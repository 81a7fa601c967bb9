// GET /api/v1/webhooks/:id/deliveries: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./webhooks.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { pageBody, pageQuery, pageRequest, pageResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { deliverySchema, webhookParams, SETTINGS_READ } from './webhooks.schemas.ts';

export const listWebhookDeliveries = defineEndpoint({
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
  errors: ['not_found'],
  handle: async ({ params, query, ctx, clients }) => {
    const page = await callUnary(
      clients.webhooks,
      'listDeliveries',
      { subscriptionId: params.id, page: pageRequest(query), status: query.status },
      ctx,
    );
    return { body: pageBody(page) };
  },
});
