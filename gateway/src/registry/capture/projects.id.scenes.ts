// GET /api/v1/projects/:id/scenes: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import { pageBody, pageQuery, pageRequest, pageResponse } from '../common.schemas.js';
import { defineEndpoint } from '../types.js';
import { projectParams, sceneSchema } from './capture.schemas.js';

export const listScenes = defineEndpoint({
  operationId: 'listScenes',
  method: 'GET',
  path: '/projects/:id/scenes',
  tag: 'Scenes',
  summary: 'The scenes reconstruction produced for a project, newest first, with their artifacts.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: projectParams,
  projectParam: 'id',
  list: true,
  query: z.strictObject({ ...pageQuery }),
  response: pageResponse(sceneSchema),
  handle: async ({ params, query, ctx, clients }) => ({
    body: pageBody(
      await callUnary(clients.capture, 'listScenes', { projectId: params.id, page: pageRequest(query) }, ctx),
    ),
  }),
});
