// GET /api/v1/projects/:id/runs/:runId: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; listed by ../families.gen.ts.
import { readEndpoint } from '../../endpoint/read-endpoint.ts';
import { runParams, runSchema } from './capture.schemas.ts';

export const getRun = readEndpoint({
  operationId: 'getRun',
  path: '/projects/:id/runs/:runId',
  tag: 'Capture',
  summary: 'The processing poll target: a reconstruction run with its status, progress and attempts.',
  kind: 'capture',
  service: 'capture',
  params: runParams,
  answer: { run: runSchema },
});
