// Does a polygon's boundary cross itself? Answered on a uniform grid instead of testing every pair
// of edges (O(n²): 16 regions of 2,000 vertices took over a second, docs/security.md "Bounded
// geometry"). Each edge is entered in the cells it passes through, column by column, and only edges
// that share a cell are tested: two edges that cross share the cell of their crossing point, so
// every crossing is found. The grid has a few cells per edge, shaped like the bounding
// box; a drawn toe puts a handful of edges in each cell, so the work is close to linear.
//
// An adversarial boundary (long parallel zigzags through every cell) could still crowd cells, so
// the pairs tested are bounded by PAIR_CHECKS_PER_EDGE per edge: past it the polygon is reported as
// too intricate, which the caller refuses with a sentence. The work is bounded before it is done.
import type { XY } from '../types.ts';

/** Pairs of edges tested, per edge, before a boundary is called too intricate to check. */
export const PAIR_CHECKS_PER_EDGE = 64;

/** `pairChecks`: the pairs of edges the grid put together, the measure of the work done. */
export type CrossingResult =
  | { kind: 'simple'; pairChecks: number }
  /** The first pair (lowest first edge, then lowest second) of non-adjacent edges that cross. */
  | { kind: 'crossing'; edges: [number, number]; pairChecks: number }
  | { kind: 'too-intricate'; pairChecks: number };

const orientation = (a: XY, b: XY, c: XY): number =>
  Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));

/** A proper crossing: each segment's ends lie strictly on both sides of the other. */
export function segmentsCross(a: XY, b: XY, c: XY, d: XY): boolean {
  const o1 = orientation(a, b, c);
  const o2 = orientation(a, b, d);
  const o3 = orientation(c, d, a);
  const o4 = orientation(c, d, b);
  return o1 * o2 < 0 && o3 * o4 < 0;
}

interface Grid {
  minX: number;
  minY: number;
  cellW: number;
  cellH: number;
  cols: number;
  rows: number;
}

function gridFor(v: readonly XY[]): Grid {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of v) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  const w = Math.max(maxX - minX, Number.MIN_VALUE);
  const h = Math.max(maxY - minY, Number.MIN_VALUE);
  const n = v.length;
  // About CELLS_PER_EDGE × n cells, as square as the box allows; never fewer than one row or column.
  const cells = CELLS_PER_EDGE * n;
  const cols = Math.min(cells, Math.max(1, Math.round(Math.sqrt((cells * w) / h))));
  const rows = Math.min(cells, Math.max(1, Math.round(cells / cols)));
  return { minX, minY, cellW: w / cols, cellH: h / rows, cols, rows };
}

/** Finer than one cell per edge: a jagged toe's long edges then share fewer cells. */
const CELLS_PER_EDGE = 2;

const clamp = (value: number, max: number): number => Math.min(max, Math.max(0, value));

/** Calls `visit(cell)` for every cell the segment a→b passes through (a superset, never fewer). */
function cellsOf(grid: Grid, a: XY, b: XY, visit: (cell: number) => void): void {
  const [left, right] = a[0] <= b[0] ? [a, b] : [b, a];
  const colOf = (x: number) => clamp(Math.floor((x - grid.minX) / grid.cellW), grid.cols - 1);
  const rowOf = (y: number) => clamp(Math.floor((y - grid.minY) / grid.cellH), grid.rows - 1);
  const dx = right[0] - left[0];
  const slope = dx === 0 ? 0 : (right[1] - left[1]) / dx;
  // A margin of a hundredth of a cell absorbs rounding at cell borders (extra cells cost nothing wrong).
  const margin = grid.cellH / 100;
  const first = colOf(left[0]);
  const last = colOf(right[0]);
  for (let col = first; col <= last; col++) {
    const x0 = Math.max(left[0], grid.minX + col * grid.cellW);
    const x1 = Math.min(right[0], grid.minX + (col + 1) * grid.cellW);
    const yA = dx === 0 ? left[1] : left[1] + slope * (x0 - left[0]);
    const yB = dx === 0 ? right[1] : left[1] + slope * (x1 - left[0]);
    const low = rowOf(Math.min(yA, yB) - margin);
    const high = rowOf(Math.max(yA, yB) + margin);
    for (let row = low; row <= high; row++) visit(row * grid.cols + col);
  }
}

const adjacent = (i: number, j: number, n: number): boolean =>
  Math.abs(i - j) === 1 || (i === 0 && j === n - 1) || (j === 0 && i === n - 1);

/** Each cell's edges, as one flat array in cell order (a counting sort: no map, no per-cell arrays). */
function cellEdges(grid: Grid, v: readonly XY[]): { starts: Int32Array; edges: Int32Array } {
  const n = v.length;
  const starts = new Int32Array(grid.cols * grid.rows + 1);
  for (let k = 0; k < n; k++) cellsOf(grid, v[k] as XY, v[(k + 1) % n] as XY, (cell) => starts[cell + 1]!++);
  for (let c = 1; c < starts.length; c++) starts[c]! += starts[c - 1]!;
  const edges = new Int32Array(starts[starts.length - 1]!);
  const filled = starts.slice(0, -1);
  for (let k = 0; k < n; k++)
    cellsOf(grid, v[k] as XY, v[(k + 1) % n] as XY, (cell) => (edges[filled[cell]!++] = k));
  return { starts, edges };
}

/** Vertices without the closing repeat; edge k runs from vertex k to vertex k+1 (mod n). */
export function findCrossing(v: readonly XY[]): CrossingResult {
  const n = v.length;
  const { starts, edges } = cellEdges(gridFor(v), v);
  const budget = PAIR_CHECKS_PER_EDGE * n;
  let pairChecks = 0;
  for (let c = 0; c + 1 < starts.length; c++) {
    const size = starts[c + 1]! - starts[c]!;
    pairChecks += (size * (size - 1)) / 2;
  }
  if (pairChecks > budget) return { kind: 'too-intricate', pairChecks };
  let best: [number, number] | null = null;
  for (let c = 0; c + 1 < starts.length; c++) {
    for (let p = starts[c]!; p < starts[c + 1]!; p++) {
      for (let q = p + 1; q < starts[c + 1]!; q++) {
        const i = Math.min(edges[p]!, edges[q]!);
        const j = Math.max(edges[p]!, edges[q]!);
        if (adjacent(i, j, n) || (best && (i > best[0] || (i === best[0] && j >= best[1])))) continue;
        if (segmentsCross(v[i] as XY, v[(i + 1) % n] as XY, v[j] as XY, v[(j + 1) % n] as XY)) best = [i, j];
      }
    }
  }
  return best ? { kind: 'crossing', edges: best, pairChecks } : { kind: 'simple', pairChecks };
}
