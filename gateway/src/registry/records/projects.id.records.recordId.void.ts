// POST /api/v1/projects/:id/records/:recordId/void: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./records.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc/client';
import { writeResponse } from '../common.schemas.js';
import { defineEndpoint } from '../types.js';
import { writeResult } from '../write-result.js';
import { recordParams, recordSchema, retractionBody } from './records.schemas.js';

export const voidProjectRecord = defineEndpoint({
  operationId: 'voidProjectRecord',
  method: 'POST',
  path: '/projects/:id/records/:recordId/void',
  tag: 'Project records',
  summary: 'Retract a record (voidedAt set); reversible. Voiding it again keeps the first voidedAt.',
  auth: 'scope',
  scope: { action: 'update', kind: 'deliverable' },
  params: recordParams,
  projectParam: 'id',
  dryRun: true,
  body: retractionBody,
  response: writeResponse('record', recordSchema),
  handle: async ({ params, body, ctx, clients }) => {
    const write = await callUnary(
      clients.records,
      'voidRecord',
      { projectId: params.id, id: params.recordId, kind: body.kind },
      ctx,
    );
    return writeResult('record', write.record, write.meta);
  },
});
