// The built-in measurement engine: a point cloud (PLY or LAS) and the regions drawn on it in,
// the site's quantities with a tolerance band on every continuous figure out.
import { EngineError } from './errors.ts';
import { MAX_REGIONS } from './limits.ts';
import { toPolygon } from './geometry/polygon.ts';
import type { Polygon } from './geometry/polygon.ts';
import { openPointCloud } from './readers/open-point-cloud.ts';
import { buildSurface } from './surface/build-surface.ts';
import { accuracyProfile } from './quantities/accuracy-profiles.ts';
import { CONFIDENCE, COVERAGE_FACTOR } from './quantities/bands.ts';
import { rollup, toFigures } from './quantities/figures.ts';
import { densityOf } from './quantities/materials.ts';
import { measureRegion } from './quantities/region-volume.ts';
import { regionBaseOf } from './stated-bases.ts';
import type { StatedRegionInput } from './stated-bases.ts';
import type {
  AccuracyProfile,
  ByteSource,
  MeasureInput,
  PointReader,
  RegionInput,
  RegionQuantities,
  SiteQuantities,
} from './types.ts';

export type MeasureOptions = Omit<MeasureInput, 'source' | 'regions'> & {
  /**
   * The error model to apply instead of the one `accuracy` selects: a stored cloud measured again
   * (new regions on an earlier run) keeps the profile its first measurement used.
   */
  readonly profile?: AccuracyProfile;
};

function checkRegions(regions: readonly (RegionInput | StatedRegionInput)[]): void {
  if (regions.length === 0)
    throw new EngineError('invalid_region', 'Give at least one region to measure.', 'regions');
  if (regions.length > MAX_REGIONS) {
    throw new EngineError(
      'too_large',
      `${regions.length} regions were given; at most ${MAX_REGIONS} are measured at once.`,
      'regions',
    );
  }
  const seen = new Set<string>();
  for (const region of regions) {
    if (seen.has(region.id))
      throw new EngineError('invalid_region', `Region id ${region.id} is used twice.`, region.id);
    seen.add(region.id);
  }
}

/** Tiles of one capture must share their units, or one of them would be measured at the wrong scale. */
function checkSameUnits(readers: readonly PointReader[], sources: readonly ByteSource[]): void {
  const first = readers[0] as PointReader;
  readers.forEach((r, i) => {
    if (
      r.header.horizontalUnit.metres !== first.header.horizontalUnit.metres ||
      r.header.verticalUnit.metres !== first.header.verticalUnit.metres
    ) {
      throw new EngineError(
        'malformed',
        `${(sources[i] as ByteSource).name} uses ${r.header.horizontalUnit.name} where ${(sources[0] as ByteSource).name} uses ${first.header.horizontalUnit.name}; convert the tiles to one unit.`,
        (sources[i] as ByteSource).name,
      );
    }
  });
}

/** Measures the regions on one point cloud, or on the tiles of one capture read as one cloud. */
export async function measureRegions(
  source: ByteSource | readonly ByteSource[],
  regions: readonly (RegionInput | StatedRegionInput)[],
  options: MeasureOptions,
): Promise<SiteQuantities> {
  checkRegions(regions);
  const sources: readonly ByteSource[] = Array.isArray(source) ? source : [source as ByteSource];
  if (sources.length === 0) throw new EngineError('insufficient_points', 'No point-cloud file was given.');
  const readers = await Promise.all(sources.map(openPointCloud));
  const reader = readers[0] as PointReader;
  const horizontal = options.units?.horizontal ?? reader.header.horizontalUnit;
  const vertical = options.units?.vertical ?? reader.header.verticalUnit;
  if (!options.units) checkSameUnits(readers, sources);
  const profile = options.profile ?? accuracyProfile(options.accuracy);
  const polygons = new Map<string, Polygon>(
    regions.map((r) => [r.id, toPolygon(r.polygon, r.id, horizontal.metres)]),
  );
  const materials = new Map(regions.map((r) => [r.id, densityOf(r.id, r.material, r.densityTPerM3)]));
  const all = [...polygons.values()];
  const extent = {
    minX: Math.min(...all.map((p) => p.minX)),
    minY: Math.min(...all.map((p) => p.minY)),
    maxX: Math.max(...all.map((p) => p.maxX)),
    maxY: Math.max(...all.map((p) => p.maxY)),
  };
  const statistic = options.statistic ?? 'mean';
  const surface = await buildSurface(readers, {
    extent,
    horizontal,
    vertical,
    statistic,
    pointSigma: profile.pointSigmaM,
    ...(options.cellSizeM !== undefined ? { cellSizeM: options.cellSizeM } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const disclosures: string[] = [];
  const measured: RegionQuantities[] = regions.map((region) => {
    const base = regionBaseOf(region, vertical.metres);
    const raw = measureRegion(
      surface.grid,
      polygons.get(region.id) as Polygon,
      region.id,
      base,
      profile,
      materials.get(region.id),
      options.accuracy.warpCurvaturePerM,
    );
    disclosures.push(...raw.disclosures);
    const material = materials.get(region.id);
    return {
      regionId: region.id,
      ...(region.name !== undefined ? { name: region.name } : {}),
      ...(region.material !== undefined ? { material: region.material } : {}),
      ...(material ? { densityTPerM3: material.densityTPerM3 } : {}),
      polygonArea: (polygons.get(region.id) as Polygon).area,
      outline: (polygons.get(region.id) as Polygon).vertices,
      coverage: raw.coverage,
      // BaseReport's kind (types.ts) names fitted-plane and elevation; the toe bases add two more.
      base: raw.base as RegionQuantities['base'],
      ...toFigures(raw),
    };
  });
  if (horizontal.name === 'unknown' || vertical.name === 'unknown') {
    disclosures.push(
      `${(sources[0] as ByteSource).name} states no linear unit; its coordinates were taken as metres.`,
    );
  }
  const crs = reader.header.crs;
  if (crs) {
    if (!options.units && !crs.verticalUnitStated && horizontal.name !== 'metre') {
      disclosures.push(
        `${(sources[0] as ByteSource).name} states ${crs.name} but no vertical unit; heights were taken in its horizontal unit (${horizontal.name}).`,
      );
    }
    if (crs.datum.rule !== 'wgs84') disclosures.push(crs.datum.statement);
  }
  for (const region of measured) {
    const fill = region.bands.fill;
    if (region.fill > 0 && fill && fill.plusMinus >= region.fill) {
      disclosures.push(
        `Region ${region.regionId}: the fill is within its own band; it is not distinguishable from zero.`,
      );
    }
  }
  const grid = surface.grid;
  let voids = 0;
  for (const s of grid.state) if (s === 0) voids++;
  return {
    regions: measured,
    rollup: rollup(measured),
    regionCount: measured.length,
    surface: {
      cellSizeM: grid.cellSize,
      statistic,
      columns: grid.columns,
      rows: grid.rows,
      pointDensityPerM2: Number(surface.densityPerM2.toPrecision(4)),
      cellSizeChosenFromDensity: surface.cellSizeChosenFromDensity,
      voidFraction: voids / grid.state.length,
    },
    capture: {
      format: reader.header.format,
      variant: reader.header.variant,
      declaredCount: readers.reduce((sum, r) => sum + r.header.declaredCount, 0),
      pointsRead: surface.pointsRead,
      pointsUsed: surface.pointsUsed,
      skippedNonFinite: readers.reduce((sum, r) => sum + r.skippedNonFinite, 0),
      ...(reader.header.crs ? { crs: reader.header.crs } : {}),
      horizontalUnit: horizontal,
      verticalUnit: vertical,
    },
    errorModel: { confidence: CONFIDENCE, coverageFactor: COVERAGE_FACTOR, profile },
    disclosures,
  };
}
