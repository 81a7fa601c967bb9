// Project records (spec: Project record, Project records states, "Project records"). Served by
// projects.ProjectRecordService. Bodies are discriminated on kind: the fields each kind takes
// and requires are declared in contracts (RECORD_KIND_FIELDS) and enforced by the service, which
// answers unknown_field for a field of another kind and field_required for a missing one.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import {
  ID_REF_MAX,
  RECORD_ASSIGNEES_MAX,
  RECORD_FIELD_LIMITS as MAX,
  RECORD_KIND_FIELDS,
  RECORD_KINDS,
  RECORD_PRIORITIES,
} from '@fieldops/contracts';
import { z } from 'zod';
import { booleanQuery, writeResponse } from '../common.schemas.js';

export const projectParams = z.strictObject({ id: z.string().min(1).max(ID_REF_MAX) });
export const recordParams = z.strictObject({
  id: z.string().min(1).max(ID_REF_MAX),
  recordId: z.string().min(1).max(ID_REF_MAX),
});

export const kindRules = Object.entries(RECORD_KIND_FIELDS)
  .map(
    ([kind, rule]) =>
      `${kind}: ${rule.fields.join(', ') || 'no own fields'}${rule.required.length ? ` (requires ${rule.required.join(', ')})` : ''}`,
  )
  .join('; ');

export const descriptive = {
  description: z.string().max(MAX.description),
  priority: z.enum(RECORD_PRIORITIES),
  assignees: z
    .array(z.string().trim().min(1).max(ID_REF_MAX))
    .max(RECORD_ASSIGNEES_MAX)
    .describe('Member ids.'),
  dueDate: z.iso.date().describe('A calendar date, YYYY-MM-DD.'),
  ballInCourt: z.string().max(MAX.ballInCourt).describe('Who must act next.'),
  involvedParty: z.string().max(MAX.involvedParty),
};
export const kindFields = {
  title: z.string().max(MAX.title),
  subject: z.string().max(MAX.subject),
  question: z.string().max(MAX.question),
};
export const amendable = { ...kindFields, ...descriptive };
/** The same fields, each optional: a create names those its kind takes, an amend those it changes. */
export const optionalAmendable = z.object(amendable).partial().shape;

export const recordSchema = z
  .object({
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
  })
  .meta({ id: 'ProjectRecord' });

export const includeVoided = booleanQuery.describe('true also lists retracted records, each with voidedAt.');

export const retractionBody = z.strictObject({ kind: z.enum(RECORD_KINDS) });

/**
 * What voiding and unvoiding a record share (a reversible flip of voidedAt, the record named with
 * its kind), but for their id, words and handler; `path` is the endpoint's own, written by its file.
 */
export const retractionEndpoint = (
  path: '/projects/:id/records/:recordId/void' | '/projects/:id/records/:recordId/unvoid',
) => ({
  method: 'POST' as const,
  path,
  tag: 'Project records',
  auth: 'scope' as const,
  scope: { action: 'update' as const, kind: 'deliverable' as const },
  params: recordParams,
  projectParam: 'id',
  dryRun: true,
  body: retractionBody,
  response: writeResponse('record', recordSchema),
});

/** The request both send: the record, its project and its kind. */
export const retractionRequest = (params: { id: string; recordId: string }, body: { kind: string }) => ({
  projectId: params.id,
  id: params.recordId,
  kind: body.kind,
});
