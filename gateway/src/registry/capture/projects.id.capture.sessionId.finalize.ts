// POST /api/v1/projects/:id/capture/:sessionId/finalize:
// declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { defineEndpoint } from '../../endpoint/types.ts';
import { sessionMoveEndpoint, sessionWrite } from './capture.schemas.ts';

export const finalizeCapture = defineEndpoint({
  ...sessionMoveEndpoint('/projects/:id/capture/:sessionId/finalize'),
  operationId: 'finalizeCapture',
  summary:
    'Finish an upload: verify every expected file is stored, meter the stored bytes, start reconstruction.',
  description:
    'The server checks its own expected keys; a missing (or wrongly typed) upload is 409 conflict listing each one under missing. The bytes metered are those the store holds, never the declared sizes. Idempotent: a repeated finalize answers the finalized session with replayed: true and meters nothing. A finalize racing an abort wins: an abort less than 10 seconds old is overridden (abortOverridden: true) and its fee voided. Takes no body.',
  handle: async ({ params, ctx, clients }) =>
    sessionWrite(
      await callUnary(
        clients.capture,
        'finalizeCapture',
        { projectId: params.id, sessionId: params.sessionId },
        ctx,
      ),
    ),
});
