// GET /api/v1/projects/:id/scenes: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { pageBody, pageRequest } from '../../endpoint/common.schemas.ts';
import { deliverablePageEndpoint } from '../../endpoint/deliverable-page.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { sceneSchema } from './capture.schemas.ts';

export const listScenes = defineEndpoint({
  ...deliverablePageEndpoint('/projects/:id/scenes', 'Scenes', sceneSchema),
  operationId: 'listScenes',
  summary: 'The scenes reconstruction produced for a project, newest first, with their artifacts.',
  handle: async ({ params, query, ctx, clients }) => ({
    body: pageBody(
      await callUnary(clients.capture, 'listScenes', { projectId: params.id, page: pageRequest(query) }, ctx),
    ),
  }),
});
