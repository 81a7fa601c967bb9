// Points to gridded surface, in two streaming passes over the file: the first measures the point
// density over the regions' extent (on a coarse occupancy grid, so bare ground outside the cloud
// does not dilute it), the second bins every point at the chosen cell size.
import { EngineError } from '../errors.ts';
import { MAX_GRID_CELLS, MAX_CELL_SIZE_M, MIN_CELL_SIZE_M } from '../limits.ts';
import type { CellStatistic, LinearUnit, PointReader } from '../types.ts';
import { cellSizeFromDensity } from './cell-size.ts';
import { SurfaceGrid } from './grid.ts';

export interface Extent {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

export interface SurfaceBuild {
  readonly grid: SurfaceGrid;
  readonly pointsRead: number;
  readonly pointsUsed: number;
  readonly densityPerM2: number;
  readonly cellSizeChosenFromDensity: boolean;
}

export interface SurfaceOptions {
  readonly extent: Extent;
  readonly horizontal: LinearUnit;
  readonly vertical: LinearUnit;
  readonly statistic: CellStatistic;
  readonly pointSigma: number;
  readonly cellSizeM?: number;
  readonly signal?: AbortSignal;
}

/** Cells of the coarse grid the density is measured on. */
const DENSITY_GRID_CELLS = 250_000;
/** The grid reaches this many cells beyond the regions, so boundary samples have data. */
const MARGIN_CELLS = 3;

/** The points of every file in turn (tiles of one capture). */
async function* pointsOf(readers: readonly PointReader[]) {
  for (const reader of readers) yield* reader.points();
}

function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new EngineError('aborted', 'The measurement was cancelled before it finished.');
}

async function measureDensity(
  readers: readonly PointReader[],
  options: SurfaceOptions,
): Promise<{ density: number; read: number }> {
  const { extent, horizontal } = options;
  const width = extent.maxX - extent.minX;
  const height = extent.maxY - extent.minY;
  const coarse = Math.max(MIN_CELL_SIZE_M * 4, Math.sqrt((width * height) / DENSITY_GRID_CELLS));
  const grid = new SurfaceGrid(
    extent.minX,
    extent.minY,
    coarse,
    Math.max(1, Math.ceil(width / coarse)),
    Math.max(1, Math.ceil(height / coarse)),
    'count',
  );
  let read = 0;
  let inside = 0;
  for await (const chunk of pointsOf(readers)) {
    checkAbort(options.signal);
    for (let k = 0; k < chunk.count; k++) {
      if (grid.add((chunk.x[k] as number) * horizontal.metres, (chunk.y[k] as number) * horizontal.metres, 0))
        inside++;
    }
    read += chunk.count;
  }
  return { density: occupiedDensity(grid, inside), read };
}

/** Points an occupied block should hold before its area is a fair measure of the density. */
const POINTS_PER_DENSITY_BLOCK = 16;

/**
 * Points per m² over the occupied part of the extent. Blocks of 1, 2, 4 … fine cells are tried
 * until an occupied block holds enough points on average: too small a block counts only the
 * cells a sparse cloud happens to hit and overstates the density.
 */
function occupiedDensity(grid: SurfaceGrid, inside: number): number {
  if (inside === 0) return 0;
  const limit = Math.max(grid.columns, grid.rows);
  for (let factor = 1; ; factor *= 2) {
    const occupied = new Set<number>();
    for (let i = 0; i < grid.count.length; i++) {
      if (grid.count[i] === 0) continue;
      const row = Math.floor(Math.floor(i / grid.columns) / factor);
      const col = Math.floor((i % grid.columns) / factor);
      occupied.add(row * grid.columns + col);
    }
    const side = grid.cellSize * factor;
    if (inside / occupied.size >= POINTS_PER_DENSITY_BLOCK || factor * 2 > limit) {
      return inside / (occupied.size * side * side);
    }
  }
}

export async function buildSurface(
  readers: readonly PointReader[],
  options: SurfaceOptions,
): Promise<SurfaceBuild> {
  const { horizontal, vertical } = options;
  const given = options.cellSizeM;
  if (given !== undefined && !(given >= MIN_CELL_SIZE_M && given <= MAX_CELL_SIZE_M)) {
    throw new EngineError(
      'invalid_region',
      `A cell size of ${given} m is outside ${MIN_CELL_SIZE_M} to ${MAX_CELL_SIZE_M} m.`,
      'cellSizeM',
    );
  }
  const { density, read } = await measureDensity(readers, options);
  if (density === 0) {
    throw new EngineError(
      'region_not_covered',
      `None of the ${read} points of the cloud falls inside the regions; check that the regions and the cloud share a coordinate system.`,
    );
  }
  const e = options.extent;
  const cell = given ?? cellSizeFromDensity(density, (e.maxX - e.minX) * (e.maxY - e.minY));
  const margin = MARGIN_CELLS * cell;
  const columns = Math.ceil((e.maxX - e.minX + 2 * margin) / cell);
  const rows = Math.ceil((e.maxY - e.minY + 2 * margin) / cell);
  if (columns * rows > MAX_GRID_CELLS) {
    throw new EngineError(
      'too_large',
      `The regions span ${columns} × ${rows} cells of ${cell} m; the engine grids at most ${MAX_GRID_CELLS} cells. Use a larger cell size or smaller regions.`,
      'cellSizeM',
    );
  }
  const grid = new SurfaceGrid(e.minX - margin, e.minY - margin, cell, columns, rows, options.statistic);
  let used = 0;
  for await (const chunk of pointsOf(readers)) {
    checkAbort(options.signal);
    for (let k = 0; k < chunk.count; k++) {
      const x = (chunk.x[k] as number) * horizontal.metres;
      const y = (chunk.y[k] as number) * horizontal.metres;
      if (grid.add(x, y, (chunk.z[k] as number) * vertical.metres)) used++;
    }
  }
  grid.finish(options.statistic, options.pointSigma);
  return {
    grid,
    pointsRead: read,
    pointsUsed: used,
    densityPerM2: density,
    cellSizeChosenFromDensity: given === undefined,
  };
}
