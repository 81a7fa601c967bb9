// GET /api/v1/projects/:id/records,
// POST /api/v1/projects/:id/records:
// declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./records.schemas.ts; listed by ../families.gen.ts.
import { CREATABLE_RECORD_KINDS } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import {
  opIdField,
  pageBody,
  pageQuery,
  pageRequest,
  pageResponse,
  writeResponse,
} from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import {
  projectParams,
  kindRules,
  optionalAmendable,
  recordSchema,
  includeVoided,
} from './records.schemas.ts';

export const listProjectRecords = defineEndpoint({
  operationId: 'listProjectRecords',
  method: 'GET',
  path: '/projects/:id/records',
  tag: 'Project records',
  summary: 'List the records of one kind on a project, newest first; retracted ones only with includeVoided.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: projectParams,
  projectParam: 'id',
  list: true,
  query: z.strictObject({ ...pageQuery, kind: z.enum(CREATABLE_RECORD_KINDS), includeVoided }),
  response: pageResponse(recordSchema),
  handle: async ({ params, query, ctx, clients }) => {
    const page = await callUnary(
      clients.records,
      'listRecords',
      {
        projectId: params.id,
        kind: query.kind,
        page: pageRequest(query),
        includeVoided: query.includeVoided ?? false,
      },
      ctx,
    );
    return { body: pageBody(page) };
  },
});

export const createProjectRecord = defineEndpoint({
  operationId: 'createProjectRecord',
  memberFields: ['assignees'],
  method: 'POST',
  path: '/projects/:id/records',
  tag: 'Project records',
  summary: 'Create a punch item, RFI, incident or daily log on a project.',
  description: `The body is discriminated on kind. Fields per kind: ${kindRules}. Every kind also takes description, priority, assignees, dueDate, ballInCourt and involvedParty.`,
  auth: 'scope',
  scope: { action: 'create', kind: 'deliverable' },
  params: projectParams,
  projectParam: 'id',
  idempotent: true,
  dryRun: true,
  body: z.strictObject({ kind: z.enum(CREATABLE_RECORD_KINDS), ...optionalAmendable, opId: opIdField }),
  response: writeResponse('record', recordSchema),
  handle: ({ params, body, ctx, clients }) =>
    forwardWrite(
      'record',
      callUnary(
        clients.records,
        'createRecord',
        { ...body, assignees: body.assignees ?? [], projectId: params.id },
        ctx,
      ),
    ),
});
