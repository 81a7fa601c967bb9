// GET /api/v1/projects/:id/capture/:sessionId: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; listed by ../families.gen.ts.
import { readEndpoint } from '../../endpoint/read-endpoint.ts';
import { sessionParams, captureSessionSchema } from './capture.schemas.ts';

export const getCapture = readEndpoint({
  operationId: 'getCapture',
  path: '/projects/:id/capture/:sessionId',
  tag: 'Capture',
  summary: 'The capture poll target: the session, its expected files and, once finalized, the metered bytes.',
  kind: 'capture',
  service: 'capture',
  params: sessionParams,
  answer: { session: captureSessionSchema },
});
