// Quantity snapshots: what the engine measured on one reconstruction run of a project. Recorded by
// the workers (once per run, and once more per region version when the customer stated regions:
// the run's stored cloud is measured with them), read by GET /projects/:id/quantities (the newest
// snapshot). Each names its basis (stated regions or the automatic whole capture) and the region
// version it measured.
import type { MeasurementBasis } from '@fieldops/contracts';
import { projectTenant, type MeasurementDeps } from '../deps.ts';
import { type RequestContext, AppError, newId } from '@fieldops/kit';
import type { Doc, DocumentStore } from '@fieldops/kit/store';
import { requireTenantId, writeRpc, type WritePlan, unchangedPlan } from '@fieldops/kit/write';
import type { measurements } from '@fieldops/proto';
import { QUANTITY_SNAPSHOTS } from '../collections.ts';
import { emitMeasurementsEvent } from '../events.ts';
import { checkQuantities } from './quantities-check.ts';
import { automaticDisclosure, basisOf } from './snapshot-basis.ts';
import { statedOnRecord } from './stated-on-record.ts';
import type { StatedOutcome } from './stated-on-record.ts';
import type { CloudFile } from './stated-measure.ts';

export interface SnapshotDoc extends Doc {
  projectId: string;
  runId: string;
  captureId: string;
  measuredAt: string;
  quantities: measurements.SiteQuantities;
  /** The run's stored cloud, measured again when regions change (absent on older snapshots). */
  files?: CloudFile[];
  /** Absent on older snapshots: derived from the regions (basisOf). */
  basis?: MeasurementBasis;
  /** The stated region version measured; 0 for the automatic region. */
  regionVersion: number;
}

export function toSnapshot(doc: SnapshotDoc): measurements.QuantitiesSnapshot {
  const basis = doc.basis ?? basisOf(doc.quantities);
  const disclosures = doc.quantities.disclosures;
  return {
    id: doc.id,
    projectId: doc.projectId,
    runId: doc.runId,
    captureId: doc.captureId,
    measuredAt: doc.measuredAt,
    quantities: {
      ...doc.quantities,
      disclosures: basis === 'automatic-whole-capture' ? [automaticDisclosure, ...disclosures] : disclosures,
    },
    basis,
    regionVersion: doc.regionVersion ?? 0,
  };
}

/** The run's snapshots as stored: the automatic one, and the stated one when regions were measured. */
function recordedDocs(
  tenantId: string,
  req: measurements.RecordQuantitiesRequest,
  quantities: measurements.SiteQuantities,
  stated: StatedOutcome | null,
): SnapshotDoc[] {
  // Distinct times: the stated measurement is the newer, so it is the snapshot the project shows.
  const at = Date.now();
  const base = {
    tenantId,
    version: 1,
    projectId: req.projectId,
    runId: req.runId,
    captureId: req.captureId,
    ...(req.files.length > 0 ? { files: req.files.map(({ key, name }) => ({ key, name })) } : {}),
  };
  const failed = stated && 'failure' in stated ? [stated.failure] : [];
  const first: SnapshotDoc = {
    ...base,
    id: newId('qty'),
    measuredAt: new Date(at).toISOString(),
    quantities: { ...quantities, disclosures: [...quantities.disclosures, ...failed] },
    basis: basisOf(quantities),
    regionVersion: 0,
  };
  if (!stated || !('quantities' in stated)) return [first];
  const second: SnapshotDoc = {
    ...base,
    id: newId('qty'),
    measuredAt: new Date(at + 1).toISOString(),
    quantities: stated.quantities,
    basis: 'stated-regions',
    regionVersion: stated.regionVersion,
  };
  return [first, second];
}

async function planRecord(
  store: DocumentStore,
  tenantId: string,
  req: measurements.RecordQuantitiesRequest,
  quantities: measurements.SiteQuantities,
  stated: StatedOutcome | null,
  ctx: RequestContext,
): Promise<WritePlan<measurements.QuantitiesSnapshot>> {
  const earlier = await newestOfRun(store, tenantId, req.runId);
  if (earlier) {
    if (earlier.projectId !== req.projectId) {
      throw new AppError(
        'conflict',
        `Run ${req.runId} was recorded for project ${earlier.projectId}, not ${req.projectId}.`,
      );
    }
    return unchangedPlan(toSnapshot(earlier), `Run ${req.runId} is already recorded.`);
  }
  const docs = recordedDocs(tenantId, req, quantities, stated);
  const doc = docs.at(-1) as SnapshotDoc;
  return {
    ops: docs.flatMap((d) => [
      { op: 'insert' as const, collection: QUANTITY_SNAPSHOTS, doc: d },
      emitMeasurementsEvent(ctx, 'quantities.recorded', { kind: 'quantities', id: d.id }, summaryOf(d)),
    ]),
    result: toSnapshot(doc),
    created: true,
    rehearsal: {
      willDo: `Record the quantities of ${doc.quantities.regionCount} region(s) measured on run ${req.runId}.`,
      effects: docs.map((d) => ({ action: 'create', kind: 'quantities', id: d.id, changes: [] })),
    },
  };
}

export const summaryOf = (doc: SnapshotDoc) => ({
  projectId: doc.projectId,
  runId: doc.runId,
  regionCount: doc.quantities.regionCount,
  basis: doc.basis,
  regionVersion: doc.regionVersion,
});

/** The newest snapshot recorded for a run (the stated one when both were recorded). */
async function newestOfRun(
  store: DocumentStore,
  tenantId: string,
  runId: string,
): Promise<SnapshotDoc | null> {
  const docs = await store.find<SnapshotDoc>(QUANTITY_SNAPSHOTS, tenantId, { runId });
  return docs.sort((a, b) => (b.regionVersion ?? 0) - (a.regionVersion ?? 0))[0] ?? null;
}

export async function recordQuantities(
  deps: MeasurementDeps,
  req: measurements.RecordQuantitiesRequest,
  ctx: RequestContext,
): Promise<measurements.QuantitiesWrite> {
  const { store, projects, blobs } = deps;
  const quantities = checkQuantities(req);
  await projects.requireProject(req.projectId, ctx);
  const tenantId = requireTenantId(ctx);
  const recorded = await store.findOne<SnapshotDoc>(QUANTITY_SNAPSHOTS, tenantId, { runId: req.runId });
  const stated = recorded ? null : await statedOnRecord(store, blobs, tenantId, req, quantities);
  return writeRpc(store, ctx, 'snapshot', {
    operation: 'recordQuantities',
    fingerprint: req,
    plan: (tenantId) => planRecord(store, tenantId, req, quantities, stated, ctx),
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
  deps: MeasurementDeps,
  req: measurements.GetQuantitiesRequest,
  ctx: RequestContext,
): Promise<measurements.QuantitiesSnapshot> {
  const tenantId = await projectTenant(deps, req.projectId, ctx);
  const newest = await newestSnapshot(deps.store, tenantId, req.projectId);
  return newest ? toSnapshot(newest) : nothingMeasured(req.projectId);
}

/**
 * An existing project nothing has been measured on: an empty snapshot (no id, no regions), not
 * a 404 an agent would read as "no such project" (docs/decisions.md).
 */
function nothingMeasured(projectId: string): measurements.QuantitiesSnapshot {
  return {
    id: '',
    projectId,
    runId: '',
    captureId: '',
    measuredAt: '',
    quantities: undefined,
    basis: '',
    regionVersion: 0,
  };
}
