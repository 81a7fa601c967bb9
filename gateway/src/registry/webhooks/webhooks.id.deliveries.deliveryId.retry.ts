// POST /api/v1/webhooks/:id/deliveries/:deliveryId/retry:
// declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./webhooks.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../../endpoint/types.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import { deliverySchema, deliveryParams, SETTINGS_UPDATE } from './webhooks.schemas.ts';

export const retryWebhookDelivery = defineEndpoint({
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
  errors: ['not_found'],
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
});
