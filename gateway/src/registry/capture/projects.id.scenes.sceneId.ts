// GET /api/v1/projects/:id/scenes/:sceneId: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; listed by ../families.gen.ts.
import { readEndpoint } from '../../endpoint/read-endpoint.ts';
import { sceneParams, sceneSchema } from './capture.schemas.ts';

export const getScene = readEndpoint({
  operationId: 'getScene',
  path: '/projects/:id/scenes/:sceneId',
  tag: 'Scenes',
  summary: 'One scene: what it is, its extent, its artifacts and the formats it can be exported to.',
  kind: 'deliverable',
  service: 'capture',
  params: sceneParams,
  answer: { scene: sceneSchema },
});
