// GET /api/v1/projects/:id/scenes/:sceneId/geometry: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../types.js';
import { sceneParams, bounds } from './capture.schemas.js';

export const getSceneGeometry = defineEndpoint({
  operationId: 'getSceneGeometry',
  method: 'GET',
  path: '/projects/:id/scenes/:sceneId/geometry',
  tag: 'Scenes',
  summary: 'A scene’s geometry: kind, point count, bounds in metres and the artifact holding it.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: sceneParams,
  projectParam: 'id',
  response: z.object({
    geometry: z.object({
      sceneId: z.string(),
      kind: z.string(),
      pointCount: z.number().int(),
      bounds: bounds.optional(),
      unit: z.literal('m'),
      artifactId: z.string().describe('Fetch it through GET /projects/:id/artifacts/:artifactId.'),
    }),
  }),
  handle: async ({ params, ctx, clients }) => ({
    body: {
      geometry: await callUnary(
        clients.capture,
        'getSceneGeometry',
        { projectId: params.id, sceneId: params.sceneId },
        ctx,
      ),
    },
  }),
});
