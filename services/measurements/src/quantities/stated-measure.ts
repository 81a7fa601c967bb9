// Stated regions measured on a run's stored point cloud: each WGS 84 toe placed in the cloud's
// frame (cloud-frame.ts: east-north-up of a stated origin, or the projected CRS a LAS file states), measured with the base the customer chose, under the error
// model the run's own measurement used (so a region changed later is measured exactly as the
// automatic region was). No reconstruction: the stored cloud is read again.
import type { BlobStore } from '@fieldops/kit/blobs';
import { AppError } from '@fieldops/kit';
import {
  isEngineError,
  meanLongitude,
  measureRegions,
  toAppError,
  type AccuracyProfile,
  type CloudFrame,
  type ControlKind,
  type PositionSource,
  type SensorKind,
  type StatedRegionInput,
  type XY,
  quantitiesMessage,
} from '@fieldops/measure-engine';
import type { measurements } from '@fieldops/proto';
import type { StatedRegionDoc } from '../regions/region-set.model.ts';
import { blobSource } from './blob-source.ts';
import { cloudFrame } from './cloud-frame.ts';

export interface CloudFile {
  key: string;
  name: string;
}

function placed(region: StatedRegionDoc, frame: CloudFrame): StatedRegionInput {
  const polygon = region.polygon.map(({ lat, lng }): XY => {
    const [x, y] = frame.place(lat, lng);
    return [x, y];
  });
  // The toe's centre: its longitude averaged across the antimeridian correctly (meanLongitude).
  const centre = {
    lat: region.polygon.reduce((sum, p) => sum + p.lat, 0) / region.polygon.length,
    lng: meanLongitude(region.polygon.map((p) => p.lng)),
  };
  const base =
    region.base === 'elevation'
      ? // The level is stated in the cloud's altitude frame; its height in the cloud is taken at
        // the toe's centre (in a local frame, the earth's curvature below a flat level).
        {
          kind: 'elevation' as const,
          z: frame.place(centre.lat, centre.lng, region.baseElevationM!)[2],
        }
      : { kind: region.base as 'triangulated' | 'fitted-plane' | 'lowest-point' };
  return {
    id: region.id,
    name: region.name,
    polygon,
    base,
    ...(region.material !== undefined ? { material: region.material } : {}),
    ...(region.densityTPerM3 !== undefined ? { densityTPerM3: region.densityTPerM3 } : {}),
  };
}

/** The engine's profile as the run's measurement recorded it. */
function profileOf(recorded: measurements.SiteQuantities): AccuracyProfile {
  const p = recorded.errorModel?.profile;
  if (!p)
    throw new AppError('conflict', 'The recorded measurement states no error model to measure again with.');
  return {
    name: p.name,
    sensor: p.sensor as SensorKind,
    control: p.control as ControlKind,
    ...(p.positionSource !== undefined ? { positionSource: p.positionSource as PositionSource } : {}),
    ...(p.alignmentRmseM !== undefined ? { alignmentRmseM: p.alignmentRmseM } : {}),
    pointSigmaM: p.pointSigmaM,
    correlatedSigmaM: p.correlatedSigmaM,
    correlationLengthM: p.correlationLengthM,
    warpSigmaM: p.warpSigmaM,
    datumSigmaM: p.datumSigmaM,
    scaleSigma: p.scaleSigma,
    source: p.source,
  };
}

export async function measureStated(
  blobs: BlobStore,
  tenantId: string,
  files: readonly CloudFile[],
  regions: readonly StatedRegionDoc[],
  recorded: measurements.SiteQuantities,
): Promise<measurements.SiteQuantities> {
  const sources = await Promise.all(files.map((file) => blobSource(blobs, tenantId, file)));
  const frame = await cloudFrame(sources);
  const profile = profileOf(recorded);
  try {
    const measured = await measureRegions(
      sources,
      regions.map((r) => placed(r, frame)),
      {
        accuracy: { sensor: profile.sensor, control: profile.control },
        profile,
        ...(recorded.surface ? { statistic: recorded.surface.statistic as 'mean' | 'min' | 'max' } : {}),
      },
    );
    return quantitiesMessage(measured);
  } catch (error) {
    throw isEngineError(error) ? toAppError(error) : error;
  }
}
