// Project records (spec: Project record, Project records states, "Project records"). Served by
// projects.ProjectRecordService. Bodies are discriminated on kind: the fields each kind takes
// and requires are declared in contracts (RECORD_KIND_FIELDS) and enforced by the service, which
// answers unknown_field for a field of another kind and field_required for a missing one.
import {
  CREATABLE_RECORD_KINDS,
  RECORD_KIND_FIELDS,
  RECORD_KINDS,
  RECORD_PRIORITIES,
} from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import {
  booleanQuery,
  opIdField,
  pageBody,
  pageQuery,
  pageRequest,
  pageResponse,
  writeResponse,
} from './common.schemas.js';
import { defineEndpoint, type EndpointDef } from './types.js';
import { writeResult } from './write-result.js';

const projectParams = z.strictObject({ id: z.string().min(1).max(100) });
const recordParams = z.strictObject({ id: z.string().min(1).max(100), recordId: z.string().min(1).max(100) });

const kindRules = Object.entries(RECORD_KIND_FIELDS)
  .map(
    ([kind, rule]) =>
      `${kind}: ${rule.fields.join(', ') || 'no own fields'}${rule.required.length ? ` (requires ${rule.required.join(', ')})` : ''}`,
  )
  .join('; ');

const descriptive = {
  description: z.string().max(5000),
  priority: z.enum(RECORD_PRIORITIES),
  assignees: z.array(z.string().trim().min(1).max(100)).max(20).describe('Member ids.'),
  dueDate: z.iso.date().describe('A calendar date, YYYY-MM-DD.'),
  ballInCourt: z.string().max(200).describe('Who must act next.'),
  involvedParty: z.string().max(200),
};
const kindFields = {
  title: z.string().max(200),
  subject: z.string().max(200),
  question: z.string().max(5000),
};
const amendable = { ...kindFields, ...descriptive };

export const recordSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  kind: z.enum(RECORD_KINDS),
  status: z.string().describe("Read-only: moved by the kind's own status machine."),
  title: z.string().optional(),
  subject: z.string().optional(),
  question: z.string().optional(),
  description: z.string().optional(),
  priority: z.enum(RECORD_PRIORITIES).optional(),
  assignees: z.array(z.string()),
  dueDate: z.string().optional(),
  ballInCourt: z.string().optional(),
  involvedParty: z.string().optional(),
  number: z.string().optional(),
  revision: z.string().optional(),
  voidedAt: z.string().optional().describe('Present on a retracted record: when it was first voided.'),
  etag: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  opId: z.string().optional(),
  nextStatuses: z.array(z.string()).describe("Statuses the kind's machine allows from here."),
});

const includeVoided = booleanQuery.describe('true also lists retracted records, each with voidedAt.');

const retractionBody = z.strictObject({ kind: z.enum(RECORD_KINDS) });

export const recordEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'listProjectRecords',
    method: 'GET',
    path: '/projects/:id/records',
    tag: 'Project records',
    summary:
      'List the records of one kind on a project, newest first; retracted ones only with includeVoided.',
    auth: 'scope',
    scope: { action: 'read', kind: 'deliverable' },
    params: projectParams,
    projectParam: 'id',
    list: true,
    query: z.strictObject({ ...pageQuery, kind: z.enum(CREATABLE_RECORD_KINDS), includeVoided }),
    response: pageResponse(recordSchema),
    errors: ['not_found', 'field_required', 'field_invalid_enum', 'unavailable'],
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
  }),
  defineEndpoint({
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
    body: z.strictObject({ kind: z.enum(CREATABLE_RECORD_KINDS), ...amendable, opId: opIdField }).partial({
      title: true,
      subject: true,
      question: true,
      description: true,
      priority: true,
      assignees: true,
      dueDate: true,
      ballInCourt: true,
      involvedParty: true,
    }),
    response: writeResponse('record', recordSchema),
    errors: [
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_invalid',
      'field_invalid_enum',
      'unknown_field',
      'unavailable',
    ],
    handle: async ({ params, body, ctx, clients }) => {
      const write = await callUnary(
        clients.records,
        'createRecord',
        { ...body, assignees: body.assignees ?? [], projectId: params.id },
        ctx,
      );
      return writeResult('record', write.record, write.meta);
    },
  }),
  defineEndpoint({
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
    errors: ['not_found', 'field_required', 'unavailable'],
    handle: async ({ params, query, ctx, clients }) => {
      const record = await callUnary(
        clients.records,
        'getRecord',
        { projectId: params.id, id: params.recordId, kind: query.kind },
        ctx,
      );
      return { body: { record, etag: record.etag }, etag: record.etag };
    },
  }),
  defineEndpoint({
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
    body: z.strictObject({ kind: z.enum(RECORD_KINDS), ...amendable }).partial({
      title: true,
      subject: true,
      question: true,
      description: true,
      priority: true,
      assignees: true,
      dueDate: true,
      ballInCourt: true,
      involvedParty: true,
    }),
    bodyRequiresOneOf: Object.keys(amendable),
    response: writeResponse('record', recordSchema),
    errors: [
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_invalid',
      'field_invalid_enum',
      'field_too_long',
      'unknown_field',
      'conflict',
      'unavailable',
    ],
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
  }),
  defineEndpoint({
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
    errors: ['not_found', 'invalid_json', 'field_invalid_enum', 'unavailable'],
    handle: async ({ params, body, ctx, clients }) => {
      const write = await callUnary(
        clients.records,
        'voidRecord',
        { projectId: params.id, id: params.recordId, kind: body.kind },
        ctx,
      );
      return writeResult('record', write.record, write.meta);
    },
  }),
  defineEndpoint({
    operationId: 'unvoidProjectRecord',
    method: 'POST',
    path: '/projects/:id/records/:recordId/unvoid',
    tag: 'Project records',
    summary: 'Take back the retraction of a record; it shows in lists again.',
    auth: 'scope',
    scope: { action: 'update', kind: 'deliverable' },
    params: recordParams,
    projectParam: 'id',
    dryRun: true,
    body: retractionBody,
    response: writeResponse('record', recordSchema),
    errors: ['not_found', 'invalid_json', 'field_invalid_enum', 'unavailable'],
    handle: async ({ params, body, ctx, clients }) => {
      const write = await callUnary(
        clients.records,
        'unvoidRecord',
        { projectId: params.id, id: params.recordId, kind: body.kind },
        ctx,
      );
      return writeResult('record', write.record, write.meta);
    },
  }),
];
