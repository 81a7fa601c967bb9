// What PUT /projects/:id/regions refuses, checked again here so a direct gRPC call meets the same
// rules as the gateway's schema: limits from contracts, a base the engine measures, a polygon of
// real WGS 84 positions with an area, a known material or a plausible density, and no id twice.
import { REGION_BASES, REGION_FIELD_LIMITS } from '@fieldops/contracts';
import { checkLengths } from '@fieldops/kit/domain';
import { AppError } from '@fieldops/kit';
import { isEngineError, MATERIALS, toLocalEnu, toPolygon, type XY } from '@fieldops/measure-engine';
import type { measurements } from '@fieldops/proto';
import type { StatedRegionDoc } from './region-set.model.ts';

function invalid(
  field: string,
  sentence: string,
  code: 'field_invalid' | 'field_required' = 'field_invalid',
): never {
  throw new AppError(code, `${field}: ${sentence}`, { field });
}

function checkPolygon(polygon: readonly measurements.LatLng[], at: string): void {
  if (polygon.length < 3) invalid(`${at}.polygon`, 'a toe needs at least 3 positions.');
  if (polygon.length > REGION_FIELD_LIMITS.vertices)
    invalid(`${at}.polygon`, `at most ${REGION_FIELD_LIMITS.vertices} positions.`);
  for (const [k, p] of polygon.entries()) {
    if (!(Math.abs(p.lat) <= 90) || !(Math.abs(p.lng) <= 180))
      invalid(`${at}.polygon[${k}]`, 'lat must be within ±90 and lng within ±180 degrees (WGS 84).');
  }
  // The engine's own check (distinct vertices, no crossing edges, an area), in metres around the
  // first position, so a toe it would refuse at measuring time is refused when it is stated.
  const origin = { lat: polygon[0]!.lat, lng: polygon[0]!.lng, alt: 0 };
  const metres = polygon.map(({ lat, lng }): XY => {
    const [east, north] = toLocalEnu(origin, lat, lng, 0);
    return [east, north];
  });
  try {
    toPolygon(metres, at);
  } catch (error) {
    if (!isEngineError(error)) throw error;
    invalid(`${at}.polygon`, error.message.replace(`Region ${at}: `, ''));
  }
}

function checkBase(region: measurements.StatedRegion, at: string): void {
  if (!(REGION_BASES as readonly string[]).includes(region.base)) {
    throw new AppError('field_invalid_enum', `${at}.base must be one of ${REGION_BASES.join(', ')}.`, {
      field: `${at}.base`,
      allowed: REGION_BASES,
    });
  }
  const elevation = region.baseElevationM;
  if (region.base === 'elevation' && elevation === undefined)
    invalid(`${at}.baseElevationM`, 'base elevation needs the level in metres.', 'field_required');
  if (region.base !== 'elevation' && elevation !== undefined)
    invalid(`${at}.baseElevationM`, 'is given only with base elevation.');
  if (elevation !== undefined && !(Math.abs(elevation) <= REGION_FIELD_LIMITS.baseElevationM))
    invalid(`${at}.baseElevationM`, `must be within ±${REGION_FIELD_LIMITS.baseElevationM} m.`);
}

function checkTonnage(region: measurements.StatedRegion, at: string): void {
  if (region.material !== undefined && !MATERIALS[region.material]) {
    throw new AppError(
      'field_invalid_enum',
      `${at}.material must be one of ${Object.keys(MATERIALS).join(', ')}; or give densityTPerM3 instead.`,
      { field: `${at}.material`, allowed: Object.keys(MATERIALS) },
    );
  }
  const density = region.densityTPerM3;
  if (density !== undefined && !(density > 0 && density <= REGION_FIELD_LIMITS.densityTPerM3))
    invalid(`${at}.densityTPerM3`, `must be above 0 and at most ${REGION_FIELD_LIMITS.densityTPerM3} t/m³.`);
}

/**
 * Async so each region's polygon is checked in its own turn of the event loop: a set at the caps
 * (16 toes of 2,000 positions) is bounded work, but done in one go it would hold every other call
 * of this service behind it; between regions the service answers its other callers.
 */
export async function checkStatedRegions(
  regions: readonly measurements.StatedRegion[],
): Promise<StatedRegionDoc[]> {
  if (regions.length > REGION_FIELD_LIMITS.regions)
    invalid('regions', `at most ${REGION_FIELD_LIMITS.regions} regions in one version.`);
  // Counted before any polygon is checked, so the work one call can ask for is bounded first.
  const positions = regions.reduce((sum, region) => sum + region.polygon.length, 0);
  if (positions > REGION_FIELD_LIMITS.setVertices)
    invalid(
      'regions',
      `the regions hold ${positions} positions in all; at most ${REGION_FIELD_LIMITS.setVertices} in one version, ${REGION_FIELD_LIMITS.vertices} in one region.`,
    );
  const seen = new Set<string>();
  const checked: StatedRegionDoc[] = [];
  for (const [index, region] of regions.entries()) {
    if (index > 0) await new Promise((resolve) => setImmediate(resolve));
    const at = `regions[${index}]`;
    checkLengths({ id: REGION_FIELD_LIMITS.id, name: REGION_FIELD_LIMITS.name }, region, at);
    if (!region.id.trim()) invalid(`${at}.id`, 'a region needs an id.', 'field_required');
    if (!region.name.trim()) invalid(`${at}.name`, 'a region needs a name.', 'field_required');
    if (seen.has(region.id)) invalid(`${at}.id`, `${region.id} is used by two regions.`);
    seen.add(region.id);
    checkPolygon(region.polygon, at);
    checkBase(region, at);
    checkTonnage(region, at);
    checked.push({
      id: region.id.trim(),
      name: region.name.trim(),
      polygon: region.polygon.map(({ lat, lng }) => ({ lat, lng })),
      base: region.base,
      ...(region.baseElevationM !== undefined ? { baseElevationM: region.baseElevationM } : {}),
      ...(region.material !== undefined ? { material: region.material } : {}),
      ...(region.densityTPerM3 !== undefined ? { densityTPerM3: region.densityTPerM3 } : {}),
    });
  }
  return checked;
}
