// POST /api/v1/projects/:id/records/:recordId/void: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./records.schemas.ts; listed by ../families.gen.ts.
import { defineEndpoint } from '../../endpoint/types.ts';
import { retractionEndpoint } from './records.schemas.ts';

export const voidProjectRecord = defineEndpoint({
  ...retractionEndpoint('/projects/:id/records/:recordId/void', 'voidRecord'),
  operationId: 'voidProjectRecord',
  summary: 'Retract a record (voidedAt set); reversible. Voiding it again keeps the first voidedAt.',
});
