// GET /api/v1/projects/:id/records/:recordId,
// PATCH /api/v1/projects/:id/records/:recordId:
// declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./records.schemas.ts; listed by ../families.gen.ts.
import { RECORD_KINDS } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import { recordParams, kindRules, amendable, optionalAmendable, recordSchema } from './records.schemas.ts';

export const getProjectRecord = defineEndpoint({
  operationId: 'getProjectRecord',
  method: 'GET',
  path: '/projects/:id/records/:recordId',
  tag: 'Project records',
  summary: 'Read one record of any kind, a retracted one included.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: recordParams,
  projectParam: 'id',
  query: z.strictObject({ kind: z.enum(RECORD_KINDS) }),
  response: z.object({ record: recordSchema, etag: z.string() }),
  handle: async ({ params, query, ctx, clients }) => {
    const record = await callUnary(
      clients.records,
      'getRecord',
      { projectId: params.id, id: params.recordId, kind: query.kind },
      ctx,
    );
    return { body: { record, etag: record.etag }, etag: record.etag };
  },
});

export const updateProjectRecord = defineEndpoint({
  operationId: 'updateProjectRecord',
  memberFields: ['assignees'],
  method: 'PATCH',
  path: '/projects/:id/records/:recordId',
  tag: 'Project records',
  summary: "Amend a record's descriptive fields; status is not patchable.",
  description: `kind names the record's kind; the fields must be ones that kind takes (${kindRules}). An empty string or list clears an optional field. A retracted record is 409 until unvoided.`,
  auth: 'scope',
  scope: { action: 'update', kind: 'deliverable' },
  params: recordParams,
  projectParam: 'id',
  amending: true,
  dryRun: true,
  body: z.strictObject({ kind: z.enum(RECORD_KINDS), ...optionalAmendable }),
  bodyRequiresOneOf: Object.keys(amendable),
  response: writeResponse('record', recordSchema),
  handle: async ({ params, body, ifMatch, ctx, clients }) => {
    const { assignees, ...fields } = body;
    const write = await callUnary(
      clients.records,
      'updateRecord',
      {
        ...fields,
        assignees: assignees === undefined ? undefined : { ids: assignees },
        projectId: params.id,
        id: params.recordId,
        ifMatch,
      },
      ctx,
    );
    return writeResult('record', write.record, write.meta);
  },
});
