// GET /api/v1/projects/:id/capture/:sessionId: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../types.js';
import { sessionParams, captureSessionSchema } from './capture.schemas.js';

export const getCapture = defineEndpoint({
  operationId: 'getCapture',
  method: 'GET',
  path: '/projects/:id/capture/:sessionId',
  tag: 'Capture',
  summary: 'The capture poll target: the session, its expected files and, once finalized, the metered bytes.',
  auth: 'scope',
  scope: { action: 'read', kind: 'capture' },
  params: sessionParams,
  projectParam: 'id',
  response: z.object({ session: captureSessionSchema }),
  handle: async ({ params, ctx, clients }) => ({
    body: {
      session: await callUnary(
        clients.capture,
        'getCapture',
        { projectId: params.id, sessionId: params.sessionId },
        ctx,
      ),
    },
  }),
});
