// The measurement regions a customer states for a project (GET and PUT /projects/:id/regions): a
// versioned set, each version replacing the whole set under If-Match, kept as stated so that every
// quantities snapshot can name the version it measured. Measuring with them is
// ../quantities/stated-measure.ts.
import { assertIfMatch } from '@fieldops/kit/domain';
import { type RequestContext, nowIso, notFound } from '@fieldops/kit';
import type { DocumentStore, WriteOp } from '@fieldops/kit/store';
import { projectWriteRpcOf, type WritePlan } from '@fieldops/kit/write';
import type { measurements } from '@fieldops/proto';
import { REGION_SETS, REGION_VERSIONS } from '../collections.ts';
import { emitMeasurementsEvent } from '../events.ts';
import { projectTenant, type MeasurementDeps } from '../deps.ts';
import { checkStatedRegions } from './regions-check.ts';
import { noRegions, regionSetId, toRegionSet } from './region-set.model.ts';
import type { RegionSetDoc, RegionVersionDoc } from './region-set.model.ts';

/** The project's newest stated version, or version 0 with no regions. */
export async function currentRegionSet(
  store: DocumentStore,
  tenantId: string,
  projectId: string,
): Promise<RegionSetDoc> {
  return (
    (await store.get<RegionSetDoc>(REGION_SETS, tenantId, regionSetId(projectId))) ??
    noRegions(projectId, tenantId)
  );
}

export async function getRegions(
  deps: MeasurementDeps,
  req: measurements.GetRegionsRequest,
  ctx: RequestContext,
): Promise<measurements.RegionSet> {
  const { store } = deps;
  const tenantId = await projectTenant(deps, req.projectId, ctx);
  const current = await currentRegionSet(store, tenantId, req.projectId);
  if (req.version === undefined || req.version === current.version) return toRegionSet(current);
  const kept = await store.findOne<RegionVersionDoc>(REGION_VERSIONS, tenantId, {
    projectId: req.projectId,
    regionVersion: req.version,
  });
  if (!kept) throw notFound('region version', `${req.projectId} v${req.version}`);
  // An earlier version is read, never amended: it carries no etag to send back.
  return {
    ...toRegionSet({
      ...current,
      version: kept.regionVersion,
      regions: kept.regions,
      statedAt: kept.statedAt,
    }),
    etag: '',
  };
}

function describe(regions: readonly { name: string; base: string }[]): string {
  if (regions.length === 0) return 'no regions (the whole capture is measured automatically)';
  return regions.map((r) => `${r.name} (base ${r.base})`).join(', ');
}

async function planStateRegions(
  store: DocumentStore,
  tenantId: string,
  req: measurements.StateRegionsRequest,
  ctx: RequestContext,
): Promise<WritePlan<measurements.RegionSet>> {
  const regions = await checkStatedRegions(req.regions);
  const current = await currentRegionSet(store, tenantId, req.projectId);
  assertIfMatch(req.ifMatch, current, toRegionSet(current));
  const statedAt = nowIso();
  const next: RegionSetDoc = { ...current, version: current.version + 1, regions, statedAt };
  const history: RegionVersionDoc = {
    id: `${next.id}_v${next.version}`,
    tenantId,
    version: 1,
    projectId: req.projectId,
    regionVersion: next.version,
    regions,
    statedAt,
  };
  const setOp: WriteOp =
    current.version === 0
      ? { op: 'insert', collection: REGION_SETS, doc: next }
      : { op: 'replace', collection: REGION_SETS, doc: next, expectedVersion: current.version };
  const view = toRegionSet(next);
  const summary = { projectId: req.projectId, version: next.version, regionCount: regions.length };
  return {
    ops: [
      setOp,
      { op: 'insert', collection: REGION_VERSIONS, doc: history },
      emitMeasurementsEvent(ctx, 'regions.stated', { kind: 'regions', id: next.id }, summary),
    ],
    result: view,
    // Every project has a region set (version 0, empty): stating one changes it, never creates it.
    created: false,
    rehearsal: {
      willDo: `State version ${next.version} of the measurement regions of project ${req.projectId}: ${describe(regions)}. Quantities already recorded keep the version they were measured with; POST /projects/${req.projectId}/quantities/remeasure measures the newest capture with this one.`,
      effects: [
        {
          action: current.version === 0 ? 'create' : 'update',
          kind: 'regions',
          id: next.id,
          changes: [{ field: 'version', from: String(current.version), to: String(next.version) }],
        },
      ],
    },
  };
}

export const stateRegions = projectWriteRpcOf(
  'stateRegions',
  'regionSet',
  (deps: MeasurementDeps, tenantId, req: measurements.StateRegionsRequest, ctx) =>
    planStateRegions(deps.store, tenantId, req, ctx),
);
