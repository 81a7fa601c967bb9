// Field limits of the measurement regions a customer states (PUT /projects/:id/regions, served by
// services/measurements). The counts are the engine's own budgets (MAX_REGIONS, MAX_REGION_VERTICES
// in services/measure-engine/src/limits.ts) scaled to what one request may carry. How the limits
// are read and re-checked: ./index.ts.

/** The four base surfaces a region is measured against (docs/measurements.md, "Regions"). */
export const REGION_BASES = ['triangulated', 'fitted-plane', 'lowest-point', 'elevation'] as const;
export type RegionBaseKind = (typeof REGION_BASES)[number];

export const REGION_FIELD_LIMITS = {
  /** A region's id (the key takeoff lines and snapshots name it by) and its name. */
  id: 64,
  name: 200,
  /** A material key of the engine's table. */
  material: 64,
  /** Regions in one version. */
  regions: 100,
  /** Vertices of one toe polygon. */
  vertices: 2000,
  /**
   * Vertices of all the polygons of one version: sixteen toes at the cap. Bounds the crossing
   * checks one request can ask for before any is done (docs/security.md, "Bounded geometry").
   */
  setVertices: 32_000,
  /** Bulk density, t/m³: the densest bulk material is well under this. */
  densityTPerM3: 25,
  /** |base elevation|, metres. */
  baseElevationM: 100_000,
} as const;

/**
 * What a quantities snapshot measured: the regions the customer stated, or, with none stated, the
 * whole capture above a plane fitted to its edges (trees, buildings and all), which is not a
 * stated stockpile. A client branches on it before calling a figure a stockpile's volume.
 */
export const MEASUREMENT_BASES = ['stated-regions', 'automatic-whole-capture'] as const;
export type MeasurementBasis = (typeof MEASUREMENT_BASES)[number];
