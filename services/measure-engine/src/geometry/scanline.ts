// The cells of a grid whose centres lie inside a polygon, by a scanline fill: per row of cell
// centres, the x where each edge crosses that row, sorted; the centres between the 1st and 2nd,
// 3rd and 4th, … crossing are inside. It costs O(edges·rows + cells) where testing every cell
// against every edge (a ray cast per cell) cost O(cells·edges): up to 4 million cells × 2,000
// vertices. The crossing test and the crossing's x are the ray cast's own expressions, and a
// centre on a crossing counts as the ray cast counts it, so both give the same cells exactly
// (even-odd rule; test/scanline.test.ts holds them equal on random polygons).
import type { XY } from '../types.ts';
import type { Polygon } from './polygon.ts';

/** Where the cells are: the grid's origin, cell size and shape (a SurfaceGrid is one). */
export interface CellFrame {
  readonly originX: number;
  readonly originY: number;
  readonly cellSize: number;
  readonly columns: number;
  readonly rows: number;
  centreX(col: number): number;
  centreY(row: number): number;
}

/** The x where each edge crosses the line at height y (half-open in y, as the ray cast). */
function crossingsAt(vertices: readonly XY[], y: number, out: number[]): void {
  out.length = 0;
  for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) {
    const [xi, yi] = vertices[i] as XY;
    const [xj, yj] = vertices[j] as XY;
    if (yi > y !== yj > y) out.push(((xj - xi) * (y - yi)) / (yj - yi) + xi);
  }
  out.sort((a, b) => a - b);
}

/**
 * The first column whose centre is at or past x (the ray cast counts a crossing at or right of
 * the centre, so a centre exactly on the left crossing is inside). Estimated by division, then
 * settled with the same centreX the ray cast used, so rounding cannot move a boundary cell.
 */
function firstColumnFrom(frame: CellFrame, x: number, from: number): number {
  let col = Math.max(from, Math.ceil((x - frame.originX) / frame.cellSize - 0.5));
  while (col > from && frame.centreX(col - 1) >= x) col--;
  while (col < frame.columns && frame.centreX(col) < x) col++;
  return col;
}

/**
 * Calls `visit(row, col)` for each cell whose centre lies inside the polygon, row by row and
 * left to right within a row (the order the cells were visited in before, so sums built from
 * them are bit for bit the same).
 */
export function forEachCellInside(
  frame: CellFrame,
  polygon: Polygon,
  visit: (row: number, col: number) => void,
): void {
  const c = frame.cellSize;
  const row0 = Math.max(0, Math.floor((polygon.minY - frame.originY) / c));
  const row1 = Math.min(frame.rows - 1, Math.floor((polygon.maxY - frame.originY) / c));
  const col0 = Math.max(0, Math.floor((polygon.minX - frame.originX) / c));
  const col1 = Math.min(frame.columns - 1, Math.floor((polygon.maxX - frame.originX) / c));
  const xs: number[] = [];
  for (let row = row0; row <= row1; row++) {
    crossingsAt(polygon.vertices, frame.centreY(row), xs);
    let col = col0;
    // Inside where an odd number of crossings lie at or right of the centre: between the
    // (2k)th crossing (inclusive of a centre on it) and the (2k+1)th (exclusive).
    for (let k = 0; k + 1 < xs.length && col <= col1; k += 2) {
      col = firstColumnFrom(frame, xs[k] as number, col);
      const end = xs[k + 1] as number;
      for (; col <= col1 && frame.centreX(col) < end; col++) visit(row, col);
    }
  }
}
