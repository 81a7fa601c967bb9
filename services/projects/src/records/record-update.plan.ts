import { describeChanges, diffFields, assertIfMatch, compact } from '@fieldops/kit/domain';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { projects } from '@fieldops/proto';
import { PROJECT_RECORDS } from '../collections.ts';
import { eventEffect, updateEffect } from '../effects.ts';
import { emitProjectsEvent } from '../events.ts';
import { assertRequired, kindOf, recordFields } from './record-fields.ts';
import { loadRecord } from './record-lookup.ts';
import { RECORD_CHANGE_FIELDS, toRecordView, type RecordDoc, type RecordFields } from './record.model.ts';

export async function planUpdateRecord(
  store: DocumentStore,
  tenantId: string,
  req: projects.UpdateRecordRequest,
  ctx: RequestContext,
): Promise<WritePlan<projects.ProjectRecord>> {
  const kind = kindOf(req.kind);
  const sent = recordFields(kind, sentFields(req));
  const doc = await loadRecord(store, tenantId, { projectId: req.projectId, id: req.id, kind });
  assertIfMatch(req.ifMatch, doc, toRecordView(doc));
  if (doc.voidedAt) throw retracted(doc);
  const next = merged(doc, sent);
  assertRequired(kind, next);
  const changes = diffFields(doc, next, RECORD_CHANGE_FIELDS);
  if (changes.length === 0) {
    return unchangedPlan(
      toRecordView(doc),
      `Nothing would change: record ${doc.id} already has these values.`,
    );
  }
  const stored: RecordDoc = { ...next, version: doc.version + 1, updatedAt: nowIso() };
  const record = toRecordView(stored);
  return {
    ops: [
      { op: 'replace', collection: PROJECT_RECORDS, doc: stored, expectedVersion: doc.version },
      emitProjectsEvent(ctx, 'record.updated', { kind: 'record', id: doc.id }, { record, changes }),
    ],
    result: record,
    created: false,
    rehearsal: {
      willDo: `Amend ${kind} record ${doc.id}: ${describeChanges(changes)}.`,
      effects: [updateEffect('record', doc.id, changes), eventEffect('record.updated', doc.id)],
    },
  };
}

function sentFields(req: projects.UpdateRecordRequest): RecordFields {
  return {
    title: req.title,
    subject: req.subject,
    question: req.question,
    description: req.description,
    priority: req.priority,
    assignees: req.assignees?.ids,
    dueDate: req.dueDate,
    ballInCourt: req.ballInCourt,
    involvedParty: req.involvedParty,
  };
}

/** Sent fields replace stored ones; an empty text or an empty assignee list clears the field. */
function merged(doc: RecordDoc, sent: RecordFields): RecordDoc {
  const next: Record<string, unknown> = { ...doc };
  for (const [field, value] of Object.entries(sent)) {
    const cleared = value === '' || (Array.isArray(value) && value.length === 0);
    next[field] = cleared ? undefined : value;
  }
  return compact(next) as RecordDoc;
}

function retracted(doc: RecordDoc): AppError {
  return new AppError(
    'conflict',
    `Record ${doc.id} is retracted (voided at ${doc.voidedAt ?? ''}); take the retraction back with POST .../unvoid before amending it.`,
    { current: toRecordView(doc) },
  );
}
