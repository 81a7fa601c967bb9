// Project records: reads go straight to the store; every write is planned (record-*.plan.ts) and
// applied through runWrite (exactly-once by key, dry-runnable, atomic with its event).
import { CREATABLE_RECORD_KINDS, RECORD_KINDS } from '@fieldops/contracts';
import type { RequestContext } from '@fieldops/kit/context';
import { itemJson, listPage } from '@fieldops/kit/domain/paging';
import type { DocumentStore, Filter } from '@fieldops/kit/store/port';
import { requireTenantId, writeRpc } from '@fieldops/kit/write/index';
import type { WritePlan } from '@fieldops/kit/write/index';
import { projects } from '@fieldops/proto';
import { PROJECT_RECORDS } from '../collections.js';
import { loadProject } from '../projects/projects.service.js';
import { planCreateRecord } from './record-create.plan.js';
import { kindOf } from './record-fields.js';
import { loadRecord } from './record-lookup.js';
import { planRetraction } from './record-retraction.plan.js';
import { planMoveRecordStatus } from './record-status.plan.js';
import { planUpdateRecord } from './record-update.plan.js';
import { toRecordView } from './record.model.js';

/** A record in items_json; one function for the process, so the store remembers its renderings. */
const RECORD_JSON = itemJson(toRecordView, projects.ProjectRecord);

/** Newest first; a retracted record only with includeVoided (spec). */
export async function listRecords(
  store: DocumentStore,
  req: projects.ListRecordsRequest,
  ctx: RequestContext,
): Promise<projects.RecordPage> {
  const tenantId = requireTenantId(ctx);
  const kind = kindOf(req.kind, CREATABLE_RECORD_KINDS);
  await loadProject(store, tenantId, req.projectId);
  // { voidedAt: null } also matches a record that never had the field (MongoDB semantics).
  const filter: Filter = { projectId: req.projectId, kind, ...(req.includeVoided ? {} : { voidedAt: null }) };
  return listPage(
    store,
    PROJECT_RECORDS,
    tenantId,
    req.page,
    { filter, sort: { field: 'createdAt', direction: 'desc' } },
    toRecordView,
    RECORD_JSON,
  );
}

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

async function write(
  store: DocumentStore,
  ctx: RequestContext,
  operation: string,
  request: unknown,
  plan: (tenantId: string) => Promise<WritePlan<projects.ProjectRecord>>,
): Promise<projects.RecordWrite> {
  return writeRpc(store, ctx, 'record', {
    operation,
    fingerprint: request,
    plan: (tenantId) => plan(tenantId),
  });
}

export const createRecord = (store: DocumentStore, req: projects.CreateRecordRequest, ctx: RequestContext) =>
  write(store, ctx, 'createRecord', req, (tenantId) =>
    planCreateRecord(store, tenantId, req, ctx, CREATABLE_RECORD_KINDS),
  );

/** Every kind: records that arrive from the portal or a sync (submittals, drawings, minutes). */
export const importRecord = (store: DocumentStore, req: projects.CreateRecordRequest, ctx: RequestContext) =>
  write(store, ctx, 'importRecord', req, (tenantId) =>
    planCreateRecord(store, tenantId, req, ctx, RECORD_KINDS),
  );

export const updateRecord = (store: DocumentStore, req: projects.UpdateRecordRequest, ctx: RequestContext) =>
  write(store, ctx, 'updateRecord', req, (tenantId) => planUpdateRecord(store, tenantId, req, ctx));

export const voidRecord = (
  store: DocumentStore,
  req: projects.RecordRetractionRequest,
  ctx: RequestContext,
) => write(store, ctx, 'voidRecord', req, (tenantId) => planRetraction(store, tenantId, req, ctx, 'void'));

export const unvoidRecord = (
  store: DocumentStore,
  req: projects.RecordRetractionRequest,
  ctx: RequestContext,
) =>
  write(store, ctx, 'unvoidRecord', req, (tenantId) => planRetraction(store, tenantId, req, ctx, 'unvoid'));

export const moveRecordStatus = (
  store: DocumentStore,
  req: projects.MoveRecordStatusRequest,
  ctx: RequestContext,
) =>
  write(store, ctx, 'moveRecordStatus', req, (tenantId) => planMoveRecordStatus(store, tenantId, req, ctx));
