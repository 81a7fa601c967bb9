// The region mask's cost, old against new: the per-cell ray cast (every cell of a region's box
// against every edge) and the scanline fill (geometry/scanline.ts), on one star-shaped region of
// 2,000 vertices over a 2,000 × 2,000 cell grid (4 million cells). Prints the ratio; not a test.
// Run: node services/measure-engine/bench/region-mask.ts
import { contains, toPolygon } from '../src/geometry/polygon.ts';
import { forEachCellInside, type CellFrame } from '../src/geometry/scanline.ts';
import type { XY } from '../src/types.ts';

const SIDE = 2000;
const VERTICES = 2000;
const grid: CellFrame = {
  originX: 0,
  originY: 0,
  cellSize: 1,
  columns: SIDE,
  rows: SIDE,
  centreX: (col) => col + 0.5,
  centreY: (row) => row + 0.5,
};
const vertices: XY[] = Array.from({ length: VERTICES }, (_, k) => {
  const angle = (2 * Math.PI * k) / VERTICES;
  const radius = SIDE * (0.4 + 0.08 * Math.sin(17 * angle));
  return [SIDE / 2 + radius * Math.cos(angle), SIDE / 2 + radius * Math.sin(angle)];
});
const polygon = toPolygon(vertices, 'bench');

function time(run: () => number): { seconds: number; cells: number } {
  const start = process.hrtime.bigint();
  const cells = run();
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, cells };
}

const scan = time(() => {
  let n = 0;
  forEachCellInside(grid, polygon, () => n++);
  return n;
});
// The ray cast over every row would take minutes: time a band of rows and scale it up.
const BAND = 50;
const ray = time(() => {
  let n = 0;
  for (let row = SIDE / 2 - BAND / 2; row < SIDE / 2 + BAND / 2; row++)
    for (let col = 0; col < SIDE; col++) if (contains(polygon, grid.centreX(col), grid.centreY(row))) n++;
  return n;
});
const raySeconds = (ray.seconds * SIDE) / BAND;
process.stdout.write(
  `${JSON.stringify({
    bench: 'region-mask',
    cells: SIDE * SIDE,
    vertices: VERTICES,
    cellsInside: scan.cells,
    scanlineSeconds: scan.seconds,
    rayCastSecondsEstimated: raySeconds,
    ratio: raySeconds / scan.seconds,
  })}\n`,
);
