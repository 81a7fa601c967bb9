// GET /api/v1/event-types: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./webhooks.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../../endpoint/types.ts';

export const listEventTypes = defineEndpoint({
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
  handle: async ({ ctx, clients }) => {
    const list = await callUnary(clients.webhooks, 'listEventTypes', {}, ctx);
    return { body: { items: list.items } };
  },
});
