// GET /api/v1/projects/:id/scenes/:sceneId: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../types.js';
import { sceneParams, sceneSchema } from './capture.schemas.js';

export const getScene = defineEndpoint({
  operationId: 'getScene',
  method: 'GET',
  path: '/projects/:id/scenes/:sceneId',
  tag: 'Scenes',
  summary: 'One scene: what it is, its extent, its artifacts and the formats it can be exported to.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: sceneParams,
  projectParam: 'id',
  response: z.object({ scene: sceneSchema }),
  handle: async ({ params, ctx, clients }) => ({
    body: {
      scene: await callUnary(
        clients.capture,
        'getScene',
        { projectId: params.id, sceneId: params.sceneId },
        ctx,
      ),
    },
  }),
});
