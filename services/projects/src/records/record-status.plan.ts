// Planning MoveRecordStatus: one move of the record kind's status machine (submittal review,
// punch sign-off). Not an API call: the spec keeps status read-only through the API, and the
// server enforces each kind's transitions for whoever moves them (portal, sync).
import { nextRecordStatuses, recordStatusesOf } from '@fieldops/contracts';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { projects } from '@fieldops/proto';
import { PROJECT_RECORDS } from '../collections.ts';
import { eventEffect, updateEffect } from '../effects.ts';
import { emitProjectsEvent } from '../events.ts';
import { kindOf } from './record-fields.ts';
import { loadRecord } from './record-lookup.ts';
import { toRecordView, type RecordDoc } from './record.model.ts';

export async function planMoveRecordStatus(
  store: DocumentStore,
  tenantId: string,
  req: projects.MoveRecordStatusRequest,
  ctx: RequestContext,
): Promise<WritePlan<projects.ProjectRecord>> {
  const kind = kindOf(req.kind);
  const statuses = recordStatusesOf(kind);
  if (!statuses.includes(req.status)) {
    throw new AppError(
      'field_invalid_enum',
      `status of a ${kind} record must be one of ${statuses.join(', ')}.`,
      {
        field: 'status',
        allowed: statuses,
      },
    );
  }
  const doc = await loadRecord(store, tenantId, { projectId: req.projectId, id: req.id, kind });
  if (doc.status === req.status) {
    return unchangedPlan(
      toRecordView(doc),
      `Nothing would change: record ${doc.id} is already ${doc.status}.`,
    );
  }
  const legal = nextRecordStatuses(kind, doc.status);
  if (doc.voidedAt || !legal.includes(req.status)) {
    const why = doc.voidedAt
      ? 'it is retracted; unvoid it first'
      : `legal from ${doc.status}: ${legal.join(', ') || 'none'}`;
    throw new AppError(
      'conflict',
      `A ${kind} record cannot move from ${doc.status} to ${req.status} (${why}).`,
      {
        legalTransitions: doc.voidedAt ? [] : legal,
        status: doc.status,
      },
    );
  }
  const now = nowIso();
  const stored: RecordDoc = { ...doc, status: req.status, updatedAt: now, version: doc.version + 1 };
  const record = toRecordView(stored);
  const change = { field: 'status', from: doc.status, to: req.status };
  return {
    ops: [
      { op: 'replace', collection: PROJECT_RECORDS, doc: stored, expectedVersion: doc.version },
      emitProjectsEvent(ctx, 'record.status_changed', { kind: 'record', id: doc.id }, { record, ...change }),
    ],
    result: record,
    created: false,
    rehearsal: {
      willDo: `Move ${kind} record ${doc.id}: status ${doc.status} → ${req.status}.`,
      effects: [updateEffect('record', doc.id, [change]), eventEffect('record.status_changed', doc.id)],
    },
  };
}
