// POST /api/v1/projects/:id/records/:recordId/void: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./records.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { defineEndpoint } from '../types.js';
import { forwardWrite } from '../write-result.js';
import { retractionEndpoint, retractionRequest } from './records.schemas.js';

export const voidProjectRecord = defineEndpoint({
  ...retractionEndpoint('/projects/:id/records/:recordId/void'),
  operationId: 'voidProjectRecord',
  summary: 'Retract a record (voidedAt set); reversible. Voiding it again keeps the first voidedAt.',
  handle: ({ params, body, ctx, clients }) =>
    forwardWrite('record', callUnary(clients.records, 'voidRecord', retractionRequest(params, body), ctx)),
});
