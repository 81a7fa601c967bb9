// POST /api/v1/webhooks/:id/rotate-secret: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./webhooks.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../../endpoint/types.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import { webhookSchema, secretField, webhookParams, SETTINGS_UPDATE } from './webhooks.schemas.ts';

export const rotateWebhookSecret = defineEndpoint({
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
});
