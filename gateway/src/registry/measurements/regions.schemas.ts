// The measurement regions a customer states (GET/PUT /projects/:id/regions): the request and
// answer shapes, with limits and value sets from contracts (REGION_FIELD_LIMITS, REGION_BASES).
import { REGION_BASES, REGION_FIELD_LIMITS } from '@fieldops/contracts';
import { MATERIALS } from '@fieldops/measure-engine';
import type { measurements } from '@fieldops/proto';
import { z } from 'zod';
import { regionSetReply } from './measurements.gen.ts';

const L = REGION_FIELD_LIMITS;

const position = z.strictObject({
  lat: z.number().min(-90).max(90).describe('Degrees north, WGS 84.'),
  lng: z.number().min(-180).max(180).describe('Degrees east, WGS 84.'),
});

export const statedRegion = z
  .strictObject({
    id: z
      .string()
      .trim()
      .min(1)
      .max(L.id)
      .describe('Stable key of the region across versions; takeoff lines and snapshots name it.'),
    name: z.string().trim().min(1).max(L.name),
    polygon: z
      .array(position)
      .min(3)
      .max(L.vertices)
      .describe('The toe: a simple polygon in WGS 84 (lat/lng from a map), no closing repeat needed.'),
    base: z
      .enum(REGION_BASES)
      .describe(
        'The base surface: triangulated (triangles between the toe’s vertices at the captured heights there), fitted-plane (a plane fitted to the captured surface along the toe), lowest-point (level at the lowest captured point on the toe), elevation (a fixed level, baseElevationM).',
      ),
    baseElevationM: z
      .number()
      .min(-L.baseElevationM)
      .max(L.baseElevationM)
      .optional()
      .describe(
        'With base elevation only: the level in metres, in the altitude frame of the photos’ GPS (the capture’s origin).',
      ),
    material: z
      .enum(Object.keys(MATERIALS) as [string, ...string[]])
      .optional()
      .describe('A material of the density table, for tonnage.'),
    densityTPerM3: z
      .number()
      .gt(0)
      .max(L.densityTPerM3)
      .optional()
      .describe('A bulk density measured on site, t/m3; overrides the material’s.'),
  })
  .meta({ id: 'StatedRegion' });

/** Derived from measurements.proto; the regions are the stated shape above, in their place. */
export const regionSetSchema = regionSetReply
  .extend({ regions: z.array(statedRegion) })
  .meta({ id: 'RegionSet' });

export const regionSetOut = (set: measurements.RegionSet) => ({
  projectId: set.projectId,
  version: set.version,
  etag: set.etag,
  statedAt: set.statedAt,
  regions: set.regions.map((r) => ({
    id: r.id,
    name: r.name,
    polygon: r.polygon.map(({ lat, lng }) => ({ lat, lng })),
    base: r.base as (typeof REGION_BASES)[number],
    ...(r.baseElevationM !== undefined ? { baseElevationM: r.baseElevationM } : {}),
    ...(r.material !== undefined ? { material: r.material } : {}),
    ...(r.densityTPerM3 !== undefined ? { densityTPerM3: r.densityTPerM3 } : {}),
  })),
});
