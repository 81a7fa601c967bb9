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
  recordStatusesOf,
  type RecordKind,
} from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import type { HandlerInput } from '../../endpoint/types.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { booleanQuery, writeResponse } from '../../endpoint/common.schemas.ts';
import { projectRecordFields } from './records.gen.ts';

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

/**
 * The kinds' own fields (RECORD_KIND_FIELDS names them; each is text, left out when empty): a field
 * a kind names that projects.proto does not declare fails the typecheck.
 */
const KIND_OWN_FIELDS = new Set<string>(
  Object.values(RECORD_KIND_FIELDS).flatMap(
    (rule) => rule.fields,
  ) satisfies (keyof typeof projectRecordFields.shape)[],
);

/** `daily-log` → `DailyLogRecord`: the name of a kind's schema in the document. */
const recordSchemaName = (kind: RecordKind): string =>
  `${kind
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Record`;

/**
 * The record of one kind: the members of a record of any kind as projects.proto declares them
 * (projectRecordFields, in its order), less the other kinds' own fields (RECORD_KIND_FIELDS), with
 * the kind and its statuses (RECORD_STATUS_MACHINES) typed here. Named in the document
 * (`PunchRecord`, `RfiRecord`, …) and discriminated on kind.
 */
function recordOfKind(kind: RecordKind) {
  const statuses = z.enum(recordStatusesOf(kind));
  const kindSchema = z.enum([kind]);
  const own = new Set<string>(RECORD_KIND_FIELDS[kind].fields);
  const byHand: Record<string, z.ZodType> = {
    kind: kindSchema,
    status: statuses.describe(projectRecordFields.shape.status.description ?? ''),
    nextStatuses: z.array(statuses).describe(projectRecordFields.shape.nextStatuses.description ?? ''),
  };
  const members = Object.entries(projectRecordFields.shape).flatMap(([name, schema]) =>
    KIND_OWN_FIELDS.has(name) && !own.has(name) ? [] : [[name, byHand[name] ?? schema] as const],
  );
  return z.object({ ...Object.fromEntries(members), kind: kindSchema }).meta({
    id: recordSchemaName(kind),
    description: `A ${kind} record: ${RECORD_KIND_FIELDS[kind].fields.join(', ')} besides the fields every kind has.`,
  });
}

const [firstKind, ...otherKinds] = RECORD_KINDS;

/** A project record: one schema per kind, discriminated on kind. */
export const recordSchema = z
  .discriminatedUnion('kind', [recordOfKind(firstKind), ...otherKinds.map(recordOfKind)])
  .meta({ id: 'ProjectRecord', description: 'A project record of any kind: branch on kind.' });

export const includeVoided = booleanQuery.describe('true also lists retracted records, each with voidedAt.');

export const retractionBody = z.strictObject({ kind: z.enum(RECORD_KINDS) });

type RetractionInput = HandlerInput<
  z.output<typeof recordParams>,
  Record<string, unknown>,
  z.output<typeof retractionBody>
>;

/** The request both send: the record, its project and its kind. */
const retractionRequest = (params: { id: string; recordId: string }, body: { kind: string }) => ({
  projectId: params.id,
  id: params.recordId,
  kind: body.kind,
});

/**
 * What voiding and unvoiding a record share (a reversible flip of voidedAt, the record named with
 * its kind, sent to the RPC of that name), but for their id and words; `path` is the endpoint's
 * own, written by its file.
 */
export const retractionEndpoint = (
  path: '/projects/:id/records/:recordId/void' | '/projects/:id/records/:recordId/unvoid',
  rpc: 'voidRecord' | 'unvoidRecord',
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
  handle: ({ params, body, ctx, clients }: RetractionInput) =>
    forwardWrite('record', callUnary(clients.records, rpc, retractionRequest(params, body), ctx)),
});
