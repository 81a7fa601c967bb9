// POST /api/v1/projects/:id/capture/:sessionId/abort: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; listed by ../families.gen.ts.
import { ABORT_REASONS } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../../endpoint/types.ts';
import { sessionMoveEndpoint, sessionWrite } from './capture.schemas.ts';

export const abortCapture = defineEndpoint({
  ...sessionMoveEndpoint('/projects/:id/capture/:sessionId/abort'),
  operationId: 'abortCapture',
  summary:
    'Abort a session that is still uploading; reason=cancelled bills the flat, non-refundable upload fee.',
  description:
    'Only a session still uploading is touched; any other is answered unchanged (replayed: true when already aborted). reason=failed (the default) is never charged; reason=cancelled bills the flat upload fee the operator set, once.',
  query: z.strictObject({ reason: z.enum(ABORT_REASONS).optional().describe('Default failed.') }),
  handle: async ({ params, query, ctx, clients }) =>
    sessionWrite(
      await callUnary(
        clients.capture,
        'abortCapture',
        { projectId: params.id, sessionId: params.sessionId, reason: query.reason ?? 'failed' },
        ctx,
      ),
    ),
});
