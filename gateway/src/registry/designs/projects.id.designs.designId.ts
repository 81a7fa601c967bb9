// GET /api/v1/projects/:id/designs/:designId: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./designs.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../types.js';
import { designParams, designSchema } from './designs.schemas.js';

export const getDesign = defineEndpoint({
  operationId: 'getDesign',
  method: 'GET',
  path: '/projects/:id/designs/:designId',
  tag: 'Designs',
  summary: 'One design: what it draws, its status and, once sealed, who sealed it and when.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: designParams,
  projectParam: 'id',
  response: z.object({ design: designSchema }),
  handle: async ({ params, ctx, clients }) => ({
    body: {
      design: await callUnary(
        clients.capture,
        'getDesign',
        { projectId: params.id, designId: params.designId },
        ctx,
      ),
    },
  }),
});
