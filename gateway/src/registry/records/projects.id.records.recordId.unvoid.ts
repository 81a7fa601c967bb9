// POST /api/v1/projects/:id/records/:recordId/unvoid: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./records.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { defineEndpoint } from '../types.js';
import { forwardWrite } from '../write-result.js';
import { retractionEndpoint, retractionRequest } from './records.schemas.js';

export const unvoidProjectRecord = defineEndpoint({
  ...retractionEndpoint('/projects/:id/records/:recordId/unvoid'),
  operationId: 'unvoidProjectRecord',
  summary: 'Take back the retraction of a record; it shows in lists again.',
  handle: ({ params, body, ctx, clients }) =>
    forwardWrite('record', callUnary(clients.records, 'unvoidRecord', retractionRequest(params, body), ctx)),
});
