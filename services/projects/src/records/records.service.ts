// Project records: reads go straight to the store; every write is planned (record-*.plan.ts) and
// applied through runWrite (exactly-once by key, dry-runnable, atomic with its event).
import { CREATABLE_RECORD_KINDS, RECORD_KINDS } from '@fieldops/contracts';
import type { RequestContext } from '@fieldops/kit';
import { itemJson, listRpcOf, NEWEST_FIRST } from '@fieldops/kit/domain';
import type { DocumentStore, Filter } from '@fieldops/kit/store';
import { requireTenantId, withPlanArg, writeRpcOf } from '@fieldops/kit/write';
import { projects } from '@fieldops/proto';
import { PROJECT_RECORDS } from '../collections.ts';
import { loadProject } from '../projects/projects.service.ts';
import { planCreateRecord } from './record-create.plan.ts';
import { kindOf } from './record-fields.ts';
import { loadRecord } from './record-lookup.ts';
import { planRetraction } from './record-retraction.plan.ts';
import { planMoveRecordStatus } from './record-status.plan.ts';
import { planUpdateRecord } from './record-update.plan.ts';
import { toRecordView } from './record.model.ts';

/** A record in items_json; one function for the process, so the store remembers its renderings. */
const RECORD_JSON = itemJson(toRecordView, projects.ProjectRecord);

/** The project's records of one kind; a retracted record only with includeVoided (spec). */
async function recordFilter(
  req: projects.ListRecordsRequest,
  _ctx: RequestContext,
  store: DocumentStore,
  tenantId: string,
): Promise<Filter> {
  const kind = kindOf(req.kind, CREATABLE_RECORD_KINDS);
  await loadProject(store, tenantId, req.projectId);
  // { voidedAt: null } also matches a record that never had the field (MongoDB semantics).
  return { projectId: req.projectId, kind, ...(req.includeVoided ? {} : { voidedAt: null }) };
}

/** Newest first. */
export const listRecords = listRpcOf(
  PROJECT_RECORDS,
  { filter: recordFilter, sort: NEWEST_FIRST },
  toRecordView,
  RECORD_JSON,
);

/** Any kind, a retracted record included. */
export async function getRecord(
  store: DocumentStore,
  req: projects.GetRecordRequest,
  ctx: RequestContext,
): Promise<projects.ProjectRecord> {
  const kind = kindOf(req.kind, RECORD_KINDS);
  return toRecordView(
    await loadRecord(store, requireTenantId(ctx), { projectId: req.projectId, id: req.id, kind }),
  );
}

export const createRecord = writeRpcOf(
  'createRecord',
  'record',
  withPlanArg(planCreateRecord, CREATABLE_RECORD_KINDS),
);

/** Every kind: records that arrive from the portal or a sync (submittals, drawings, minutes). */
export const importRecord = writeRpcOf('importRecord', 'record', withPlanArg(planCreateRecord, RECORD_KINDS));

export const updateRecord = writeRpcOf('updateRecord', 'record', planUpdateRecord);

export const voidRecord = writeRpcOf('voidRecord', 'record', withPlanArg(planRetraction, 'void'));

export const unvoidRecord = writeRpcOf('unvoidRecord', 'record', withPlanArg(planRetraction, 'unvoid'));

export const moveRecordStatus = writeRpcOf('moveRecordStatus', 'record', planMoveRecordStatus);
