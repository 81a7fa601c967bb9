// GET /api/v1/projects/:id/scenes/:sceneId/geometry: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; listed by ../families.gen.ts.
import { z } from 'zod';
import { readEndpoint } from '../../endpoint/read-endpoint.ts';
import { sceneParams, bounds } from './capture.schemas.ts';

export const getSceneGeometry = readEndpoint({
  operationId: 'getSceneGeometry',
  path: '/projects/:id/scenes/:sceneId/geometry',
  tag: 'Scenes',
  summary: 'A scene’s geometry: kind, point count, bounds in metres and the artifact holding it.',
  kind: 'deliverable',
  service: 'capture',
  params: sceneParams,
  answer: {
    geometry: z.object({
      sceneId: z.string(),
      kind: z.string(),
      pointCount: z.number().int(),
      bounds: bounds.optional(),
      unit: z.literal('m'),
      artifactId: z.string().describe('Fetch it through GET /projects/:id/artifacts/:artifactId.'),
    }),
  },
});
