import { type RequestContext, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { projects } from '@fieldops/proto';
import { PROJECT_RECORDS } from '../collections.ts';
import { eventEffect, updateEffect } from '../effects.ts';
import { emitProjectsEvent } from '../events.ts';
import { kindOf } from './record-fields.ts';
import { loadRecord } from './record-lookup.ts';
import { toRecordView, type RecordDoc } from './record.model.ts';

export type Retraction = 'void' | 'unvoid';

export async function planRetraction(
  store: DocumentStore,
  tenantId: string,
  req: projects.RecordRetractionRequest,
  ctx: RequestContext,
  action: Retraction,
): Promise<WritePlan<projects.ProjectRecord>> {
  const kind = kindOf(req.kind);
  const doc = await loadRecord(store, tenantId, { projectId: req.projectId, id: req.id, kind });
  const retracted = doc.voidedAt !== undefined;
  if (retracted === (action === 'void')) return nothingToDo(doc, action);

  const now = nowIso();
  const { voidedAt: _previous, ...rest } = doc;
  const stored: RecordDoc =
    action === 'void'
      ? { ...doc, voidedAt: now, updatedAt: now, version: doc.version + 1 }
      : { ...rest, updatedAt: now, version: doc.version + 1 };
  const record = toRecordView(stored);
  const event = action === 'void' ? 'record.voided' : 'record.unvoided';
  const change = { field: 'voidedAt', from: doc.voidedAt, to: stored.voidedAt };
  return {
    ops: [
      { op: 'replace', collection: PROJECT_RECORDS, doc: stored, expectedVersion: doc.version },
      emitProjectsEvent(ctx, event, { kind: 'record', id: doc.id }, { record }),
    ],
    result: record,
    created: false,
    rehearsal: {
      willDo:
        action === 'void'
          ? `Retract ${kind} record ${doc.id}; it is hidden from lists until unvoided.`
          : `Take back the retraction of ${kind} record ${doc.id}; it shows in lists again.`,
      effects: [updateEffect('record', doc.id, [change]), eventEffect(event, doc.id)],
    },
  };
}

function nothingToDo(doc: RecordDoc, action: Retraction): WritePlan<projects.ProjectRecord> {
  const state = action === 'void' ? `retracted since ${doc.voidedAt ?? ''}` : 'not retracted';
  return unchangedPlan(toRecordView(doc), `Nothing would change: record ${doc.id} is already ${state}.`);
}
