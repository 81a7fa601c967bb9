// The grid's cell size, chosen from the density of the points: big enough that a typical cell
// holds several points (so its own spread can be measured), small enough to resolve the shape.
import { MAX_CELL_SIZE_M, MAX_GRID_CELLS, MIN_CELL_SIZE_M } from '../limits.ts';

/** Points a cell should hold on average: four give a usable spread and keep the grid fine. */
export const TARGET_POINTS_PER_CELL = 4;

/**
 * The cell size for `densityPerM2` points per square metre over `extentArea` m², rounded up to
 * the millimetre and kept inside the engine's limits (finest cell, coarsest cell, grid size).
 */
export function cellSizeFromDensity(densityPerM2: number, extentArea: number): number {
  const ideal = densityPerM2 > 0 ? Math.sqrt(TARGET_POINTS_PER_CELL / densityPerM2) : MAX_CELL_SIZE_M;
  const smallestForGrid = Math.sqrt(extentArea / MAX_GRID_CELLS);
  const size = Math.min(MAX_CELL_SIZE_M, Math.max(MIN_CELL_SIZE_M, smallestForGrid, ideal));
  return Math.ceil(size * 1000) / 1000;
}
