import { type RequestContext, AppError, newId, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { requireTenantId, writeRpc, type WritePlan, unchangedPlan } from '@fieldops/kit/write';
import type { measurements } from '@fieldops/proto';
import { QUANTITY_SNAPSHOTS } from '../collections.ts';
import { emitMeasurementsEvent } from '../events.ts';
import type { MeasurementDeps } from '../deps.ts';
import type { RegionSetDoc } from '../regions/region-set.model.ts';
import { currentRegionSet } from '../regions/regions.service.ts';
import { newestSnapshot, summaryOf, toSnapshot } from './quantities.service.ts';
import type { SnapshotDoc } from './quantities.service.ts';
import { measureStated } from './stated-measure.ts';

/** The run to measure again and the regions to measure on it, or a conflict saying what is missing. */
async function remeasurable(
  store: DocumentStore,
  tenantId: string,
  projectId: string,
): Promise<{ newest: SnapshotDoc & { files: NonNullable<SnapshotDoc['files']> }; set: RegionSetDoc }> {
  const set = await currentRegionSet(store, tenantId, projectId);
  if (set.regions.length === 0) {
    throw new AppError(
      'conflict',
      `Project ${projectId} has no stated regions to measure; state them first (PUT /projects/${projectId}/regions).`,
    );
  }
  const newest = await newestSnapshot(store, tenantId, projectId);
  if (!newest) {
    throw new AppError(
      'conflict',
      `Nothing has been measured on project ${projectId} yet; process a capture first (it is measured with the stated regions).`,
    );
  }
  if (!newest.files?.length) {
    throw new AppError(
      'conflict',
      `The point cloud of run ${newest.runId} was not kept with its measurement; process the capture again (POST /projects/${projectId}/process).`,
    );
  }
  return { newest: newest as SnapshotDoc & { files: NonNullable<SnapshotDoc['files']> }, set };
}

export async function remeasureQuantities(
  { store, projects, blobs }: MeasurementDeps,
  req: measurements.RemeasureQuantitiesRequest,
  ctx: RequestContext,
): Promise<measurements.QuantitiesWrite> {
  await projects.requireProject(req.projectId, ctx);
  const tenantId = requireTenantId(ctx);
  if (!blobs) throw new AppError('unavailable', 'This measurements process has no blob store configured.');
  const { newest, set } = await remeasurable(store, tenantId, req.projectId);
  let measured: Promise<measurements.SiteQuantities> | undefined;
  const plan = async (): Promise<WritePlan<measurements.QuantitiesSnapshot>> => {
    const held = await store.findOne<SnapshotDoc>(QUANTITY_SNAPSHOTS, tenantId, {
      runId: newest.runId,
      regionVersion: set.version,
    });
    const willDo = `Measure the stored point cloud of run ${newest.runId} (capture ${newest.captureId}) with version ${set.version} of the stated regions; no reconstruction.`;
    if (held) {
      return unchangedPlan(
        toSnapshot(held),
        `Run ${newest.runId} is already measured with region version ${set.version}.`,
      );
    }
    const doc: SnapshotDoc = {
      id: newId('qty'),
      tenantId,
      version: 1,
      projectId: req.projectId,
      runId: newest.runId,
      captureId: newest.captureId,
      measuredAt: nowIso(),
      quantities: newest.quantities,
      files: newest.files,
      basis: 'stated-regions',
      regionVersion: set.version,
    };
    const effects = [{ action: 'create', kind: 'quantities', id: doc.id, changes: [] }];
    // A dry run rehearses without reading the cloud.
    if (ctx.dryRun)
      return { ops: [], result: toSnapshot(doc), created: true, rehearsal: { willDo, effects } };
    measured ??= measureStated(blobs, tenantId, newest.files, set.regions, newest.quantities);
    doc.quantities = await measured;
    return {
      ops: [
        { op: 'insert', collection: QUANTITY_SNAPSHOTS, doc },
        emitMeasurementsEvent(ctx, 'quantities.recorded', { kind: 'quantities', id: doc.id }, summaryOf(doc)),
      ],
      result: toSnapshot(doc),
      created: true,
      rehearsal: { willDo, effects },
    };
  };
  return writeRpc(store, ctx, 'snapshot', { operation: 'remeasureQuantities', fingerprint: req, plan });
}
