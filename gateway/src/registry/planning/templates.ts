// GET /api/v1/templates: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./planning.schemas.ts; listed by ../families.gen.ts.
import { TEMPLATE_VERTICAL_MAX } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../../endpoint/types.ts';
import { templateSchema } from './planning.schemas.ts';

export const listTemplates = defineEndpoint({
  operationId: 'listTemplates',
  method: 'GET',
  path: '/templates',
  tag: 'Templates',
  summary: 'Task-network templates shipped with the service, one per vertical.',
  auth: 'scope',
  scope: { action: 'read', kind: 'job' },
  query: z.strictObject({ vertical: z.string().min(1).max(TEMPLATE_VERTICAL_MAX).optional() }),
  response: z.object({ items: z.array(templateSchema) }),
  handle: async ({ query, ctx, clients }) => {
    const list = await callUnary(clients.planning, 'listTemplates', { vertical: query.vertical }, ctx);
    return { body: { items: list.items } };
  },
});
