// Hard limits of the engine, in one place. The service states them in its OpenAPI descriptions
// and refuses work above them before it is queued.

/** Points a file may declare. Streaming keeps memory flat; this bounds the time of one run. */
export const MAX_POINT_COUNT = 500_000_000;

/** Points handed out per chunk by a reader (≈1.5 MB of coordinates). */
export const POINT_CHUNK_SIZE = 65_536;

/**
 * Cells of the surface grid: ≈77 bytes each for the mean statistic (count, sums, the plane
 * moments, value, variance, roughness, state), ≈57 for min/max; about 300 MB at the limit.
 */
export const MAX_GRID_CELLS = 4_000_000;

/** Finest cell the engine grids at; below this, sensor noise dominates anyway. */
export const MIN_CELL_SIZE_M = 0.05;

/** Coarsest cell; beyond it a stockpile is no longer resolved. */
export const MAX_CELL_SIZE_M = 50;

/** A PLY header longer than this is not a point cloud header. */
export const MAX_PLY_HEADER_BYTES = 64 * 1024;

/** A line of an ASCII PLY body longer than this is refused as malformed. */
export const MAX_PLY_ASCII_LINE_BYTES = 4096;

/** Bytes of LAS header plus variable-length records read before the points. */
export const MAX_LAS_PREAMBLE_BYTES = 16 * 1024 * 1024;

export const MAX_REGIONS = 500;
export const MAX_REGION_VERTICES = 2_000;

/** Empty cells further than this from a measured cell stay void (not interpolated). */
export const MAX_FILL_DISTANCE_CELLS = 2;

/** A region whose cells hold points over less than this share is refused (region_not_covered). */
export const MIN_REGION_MEASURED_FRACTION = 0.5;

/** A fitted base needs the surface sampled along at least this share of the boundary. */
export const MIN_BOUNDARY_COVERAGE = 0.25;

/** Boundary samples per region at most; spacing grows past it. */
export const MAX_BOUNDARY_SAMPLES = 20_000;

/**
 * How long a caller waits over gRPC for a stored cloud to be measured (a worker recording a run
 * that stated regions measure again, POST /projects/:id/quantities/remeasure): two reads of a
 * 10-million-point cloud take about 40 s on a 2-core machine (docs/measurements.md, "Throughput").
 */
export const MEASURING_DEADLINE_MS = 180_000;
