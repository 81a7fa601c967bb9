// GET /api/v1/templates/:id: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./planning.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { idParams } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { templateSchema } from './planning.schemas.ts';

export const getTemplate = defineEndpoint({
  operationId: 'getTemplate',
  method: 'GET',
  path: '/templates/:id',
  tag: 'Templates',
  summary: 'One template: its tasks, durations and dependencies.',
  auth: 'scope',
  scope: { action: 'read', kind: 'job' },
  params: idParams,
  response: z.object({ template: templateSchema }),
  errors: ['not_found'],
  handle: async ({ params, ctx, clients }) => ({
    body: { template: await callUnary(clients.planning, 'getTemplate', { id: params.id }, ctx) },
  }),
});
