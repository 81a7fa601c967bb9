// POST /api/v1/projects/:id/records/:recordId/unvoid: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./records.schemas.ts; listed by ../families.gen.ts.
import { defineEndpoint } from '../../endpoint/types.ts';
import { retractionEndpoint } from './records.schemas.ts';

export const unvoidProjectRecord = defineEndpoint({
  ...retractionEndpoint('/projects/:id/records/:recordId/unvoid', 'unvoidRecord'),
  operationId: 'unvoidProjectRecord',
  summary: 'Take back the retraction of a record; it shows in lists again.',
});
