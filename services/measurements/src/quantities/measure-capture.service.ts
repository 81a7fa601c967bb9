// MeasureCapture: the built-in engine run on a capture's stored point-cloud files, its result
// recorded as the run's snapshot. A run already recorded is answered from the store without
// measuring again, so a retried worker costs nothing.
import type { MeasurementDeps } from '../deps.ts';
import { type RequestContext, AppError } from '@fieldops/kit';
import { requireTenantId } from '@fieldops/kit/write';
import type { measurements } from '@fieldops/proto';
import {
  isEngineError,
  measureSite,
  toAppError,
  quantitiesMessage,
  type CaptureAccuracy,
  type ControlKind,
  type PositionSource,
  type RegionInput,
  type SensorKind,
} from '@fieldops/measure-engine';
import { blobSource } from './blob-source.ts';
import { recordQuantities, toSnapshot, type SnapshotDoc } from './quantities.service.ts';
import { QUANTITY_SNAPSHOTS } from '../collections.ts';

const SENSORS: readonly SensorKind[] = ['lidar', 'photogrammetry'];
const CONTROLS: readonly ControlKind[] = ['gcp', 'rtk', 'ppk', 'none'];
const POSITION_SOURCES: readonly PositionSource[] = ['gps', 'rtk', 'ppk', 'control'];
const MAX_FILES = 64;

function enumOf<T extends string>(value: string, allowed: readonly T[], field: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new AppError('field_invalid_enum', `${field} must be one of ${allowed.join(', ')}.`, {
      field,
      allowed,
    });
  }
  return value as T;
}

function accuracyOf(req: measurements.MeasureCaptureRequest): CaptureAccuracy {
  return {
    sensor: enumOf(req.sensor, SENSORS, 'sensor'),
    control: enumOf(req.control || 'none', CONTROLS, 'control'),
    ...(req.gsdM !== undefined ? { gsdM: req.gsdM } : {}),
    ...(req.checkpointRmseZM !== undefined ? { checkpointRmseZM: req.checkpointRmseZM } : {}),
    ...(req.positionSource !== undefined
      ? { positionSource: enumOf(req.positionSource, POSITION_SOURCES, 'positionSource') }
      : {}),
    ...(req.alignmentRmseM !== undefined ? { alignmentRmseM: req.alignmentRmseM } : {}),
    ...(req.alignmentSpanM !== undefined ? { alignmentSpanM: req.alignmentSpanM } : {}),
    ...(req.alignmentPoints !== undefined ? { alignmentPoints: req.alignmentPoints } : {}),
  };
}

const regionOf = (spec: measurements.RegionSpec): RegionInput => ({
  id: spec.id,
  ...(spec.name !== undefined ? { name: spec.name } : {}),
  polygon: spec.polygon.map((v) => [v.x, v.y] as const),
  ...(spec.material !== undefined ? { material: spec.material } : {}),
  ...(spec.densityTPerM3 !== undefined ? { densityTPerM3: spec.densityTPerM3 } : {}),
  ...(spec.baseElevation !== undefined ? { base: { kind: 'elevation', z: spec.baseElevation } } : {}),
});

export async function measureCapture(
  deps: MeasurementDeps,
  req: measurements.MeasureCaptureRequest,
  ctx: RequestContext,
): Promise<measurements.QuantitiesWrite> {
  const { store, projects, blobs } = deps;
  const tenantId = requireTenantId(ctx);
  if (!req.runId)
    throw new AppError('field_required', 'runId is required: a capture is measured once per run.', {
      field: 'runId',
    });
  if (req.files.length === 0)
    throw new AppError('field_required', 'files: name the point-cloud files to measure.', { field: 'files' });
  if (req.files.length > MAX_FILES)
    throw new AppError('field_invalid', `files: at most ${MAX_FILES} tiles are measured at once.`, {
      field: 'files',
    });
  const accuracy = accuracyOf(req);
  await projects.requireProject(req.projectId, ctx);
  const earlier = await store.findOne<SnapshotDoc>(QUANTITY_SNAPSHOTS, tenantId, { runId: req.runId });
  // A run measured before is answered from the store (its newest snapshot), not measured again.
  if (earlier && earlier.projectId === req.projectId) {
    return {
      snapshot: toSnapshot(earlier),
      meta: { replayed: true, deduped: false, created: false, rehearsal: undefined },
    };
  }
  if (!blobs) throw new AppError('unavailable', 'This measurements process has no blob store configured.');
  const sources = await Promise.all(req.files.map((file) => blobSource(blobs, tenantId, file)));
  let measured;
  try {
    measured = await measureSite(sources, req.regions.length > 0 ? req.regions.map(regionOf) : undefined, {
      accuracy,
      ...(req.cellSizeM !== undefined ? { cellSizeM: req.cellSizeM } : {}),
    });
  } catch (error) {
    throw isEngineError(error) ? toAppError(error) : error;
  }
  return recordQuantities(
    deps,
    {
      projectId: req.projectId,
      runId: req.runId,
      captureId: req.captureId,
      quantities: quantitiesMessage(measured),
      files: req.files,
    },
    ctx,
  );
}
