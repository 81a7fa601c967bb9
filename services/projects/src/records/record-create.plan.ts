// Planning POST /projects/:id/records (and ImportRecord): a record of a kind, with the fields its
// kind takes and requires, at its kind machine's first status.
import { RECORD_STATUS_MACHINES, type RecordKind } from '@fieldops/contracts';
import { setFields, cleanText, compact } from '@fieldops/kit/domain';
import { type RequestContext, newId, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import type { WritePlan } from '@fieldops/kit/write';
import type { projects } from '@fieldops/proto';
import { PROJECT_RECORDS } from '../collections.ts';
import { createEffect, eventEffect } from '../effects.ts';
import { emitProjectsEvent } from '../events.ts';
import { loadProject } from '../projects/projects.service.ts';
import { assertRequired, kindOf, recordFields } from './record-fields.ts';
import { RECORD_CHANGE_FIELDS, toRecordView, type RecordDoc, type RecordFields } from './record.model.ts';

export async function planCreateRecord(
  store: DocumentStore,
  tenantId: string,
  req: projects.CreateRecordRequest,
  ctx: RequestContext,
  kinds: readonly RecordKind[],
): Promise<WritePlan<projects.ProjectRecord>> {
  const kind = kindOf(req.kind, kinds);
  const fields = recordFields(kind, sentFields(req));
  assertRequired(kind, fields);
  const project = await loadProject(store, tenantId, req.projectId);
  const now = nowIso();
  const doc: RecordDoc = compact({
    id: newId('rec'),
    tenantId,
    version: 1,
    projectId: project.id,
    kind,
    status: RECORD_STATUS_MACHINES[kind].initial,
    ...withoutBlanks(fields),
    createdAt: now,
    updatedAt: now,
    opId: ctx.idempotencyKey || cleanText(req.opId),
  });
  const record = toRecordView(doc);
  return {
    ops: [
      { op: 'insert', collection: PROJECT_RECORDS, doc },
      emitProjectsEvent(ctx, 'record.created', { kind: 'record', id: doc.id }, { record }),
    ],
    result: record,
    created: true,
    rehearsal: {
      willDo: `Create a ${kind} record on project ${project.id} ("${project.name}") in status ${doc.status}.`,
      effects: [
        createEffect('record', doc.id, setFields(doc, RECORD_CHANGE_FIELDS)),
        eventEffect('record.created', doc.id),
      ],
    },
  };
}

function sentFields(req: projects.CreateRecordRequest): RecordFields {
  return {
    title: req.title,
    subject: req.subject,
    question: req.question,
    description: req.description,
    priority: req.priority,
    assignees: req.assignees.length ? req.assignees : undefined,
    dueDate: req.dueDate,
    ballInCourt: req.ballInCourt,
    involvedParty: req.involvedParty,
    number: req.number,
    revision: req.revision,
  };
}

/** On create an empty text means "not given". */
const withoutBlanks = (fields: RecordFields): RecordFields =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== '')) as RecordFields;
