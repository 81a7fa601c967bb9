// GET /api/v1/projects/:id/runs/:runId: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../types.js';
import { runParams, runSchema } from './capture.schemas.js';

export const getRun = defineEndpoint({
  operationId: 'getRun',
  method: 'GET',
  path: '/projects/:id/runs/:runId',
  tag: 'Capture',
  summary: 'The processing poll target: a reconstruction run with its status, progress and attempts.',
  auth: 'scope',
  scope: { action: 'read', kind: 'capture' },
  params: runParams,
  projectParam: 'id',
  response: z.object({ run: runSchema }),
  handle: async ({ params, ctx, clients }) => ({
    body: {
      run: await callUnary(clients.capture, 'getRun', { projectId: params.id, runId: params.runId }, ctx),
    },
  }),
});
