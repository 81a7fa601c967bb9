import { type RequestContext, AppError, newId, nowIso } from '@fieldops/kit';
import type { Doc, DocumentStore } from '@fieldops/kit/store';
import { requireTenantId, writeRpc, type WritePlan } from '@fieldops/kit/write';
import type { measurements } from '@fieldops/proto';
import { QUANTITY_SNAPSHOTS } from '../collections.js';
import { emitMeasurementsEvent } from '../events.js';
import type { ProjectsPort } from '../projects/projects.port.js';
import { checkQuantities } from './quantities-check.js';

export interface SnapshotDoc extends Doc {
  projectId: string;
  runId: string;
  captureId: string;
  measuredAt: string;
  quantities: measurements.SiteQuantities;
}

export const toSnapshot = (doc: SnapshotDoc): measurements.QuantitiesSnapshot => ({
  id: doc.id,
  projectId: doc.projectId,
  runId: doc.runId,
  captureId: doc.captureId,
  measuredAt: doc.measuredAt,
  quantities: doc.quantities,
});

async function planRecord(
  store: DocumentStore,
  tenantId: string,
  req: measurements.RecordQuantitiesRequest,
  quantities: measurements.SiteQuantities,
  ctx: RequestContext,
): Promise<WritePlan<measurements.QuantitiesSnapshot>> {
  const earlier = await store.findOne<SnapshotDoc>(QUANTITY_SNAPSHOTS, tenantId, { runId: req.runId });
  if (earlier) {
    if (earlier.projectId !== req.projectId) {
      throw new AppError(
        'conflict',
        `Run ${req.runId} was recorded for project ${earlier.projectId}, not ${req.projectId}.`,
      );
    }
    return {
      ops: [],
      result: toSnapshot(earlier),
      created: false,
      replayed: true,
      rehearsal: { willDo: `Run ${req.runId} is already recorded.`, effects: [] },
    };
  }
  const doc: SnapshotDoc = {
    id: newId('qty'),
    tenantId,
    version: 1,
    projectId: req.projectId,
    runId: req.runId,
    captureId: req.captureId,
    measuredAt: nowIso(),
    quantities,
  };
  const summary = { projectId: doc.projectId, runId: doc.runId, regionCount: quantities.regionCount };
  return {
    ops: [
      { op: 'insert', collection: QUANTITY_SNAPSHOTS, doc },
      emitMeasurementsEvent(ctx, 'quantities.recorded', { kind: 'quantities', id: doc.id }, summary),
    ],
    result: toSnapshot(doc),
    created: true,
    rehearsal: {
      willDo: `Record the quantities of ${quantities.regionCount} region(s) measured on run ${req.runId}.`,
      effects: [{ action: 'create', kind: 'quantities', id: doc.id, changes: [] }],
    },
  };
}

export async function recordQuantities(
  store: DocumentStore,
  projects: ProjectsPort,
  req: measurements.RecordQuantitiesRequest,
  ctx: RequestContext,
): Promise<measurements.QuantitiesWrite> {
  const quantities = checkQuantities(req);
  await projects.requireProject(req.projectId, ctx);
  return writeRpc(store, ctx, 'snapshot', {
    operation: 'recordQuantities',
    fingerprint: req,
    plan: (tenantId) => planRecord(store, tenantId, req, quantities, ctx),
  });
}

export async function newestSnapshot(
  store: DocumentStore,
  tenantId: string,
  projectId: string,
): Promise<SnapshotDoc | null> {
  const [newest] = await store.find<SnapshotDoc>(
    QUANTITY_SNAPSHOTS,
    tenantId,
    { projectId },
    { sort: { field: 'measuredAt', direction: 'desc' }, limit: 1 },
  );
  return newest ?? null;
}

export async function getQuantities(
  store: DocumentStore,
  projects: ProjectsPort,
  req: measurements.GetQuantitiesRequest,
  ctx: RequestContext,
): Promise<measurements.QuantitiesSnapshot> {
  const tenantId = requireTenantId(ctx);
  await projects.requireProject(req.projectId, ctx);
  const newest = await newestSnapshot(store, tenantId, req.projectId);
  return newest ? toSnapshot(newest) : nothingMeasured(req.projectId);
}

/**
 * An existing project nothing has been measured on: an empty snapshot (no id, no regions), not
 * a 404 an agent would read as "no such project" (docs/decisions.md).
 */
function nothingMeasured(projectId: string): measurements.QuantitiesSnapshot {
  return { id: '', projectId, runId: '', captureId: '', measuredAt: '', quantities: undefined };
}
