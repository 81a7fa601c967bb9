// The region mask's scanline fill (geometry/scanline.ts) against the per-cell ray cast it replaced
// (polygon.ts `contains`), on generated polygons: the same cells, in the same order, every time:
// star-shaped ones of up to 2,000 vertices, self-crossing loops, and vertices snapped to cell
// centres and cell edges (where a centre lies exactly on a crossing or an edge runs along a row).
import { describe, expect, it } from '@jest/globals';
import { contains, toPolygon, type Polygon } from '../src/geometry/polygon.ts';
import { forEachCellInside, type CellFrame } from '../src/geometry/scanline.ts';
import type { XY } from '../src/types.ts';

/** A small deterministic generator (mulberry32), so a failure is reproducible from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function frame(originX: number, originY: number, cellSize: number, columns: number, rows: number): CellFrame {
  return {
    originX,
    originY,
    cellSize,
    columns,
    rows,
    centreX: (col) => originX + (col + 0.5) * cellSize,
    centreY: (row) => originY + (row + 0.5) * cellSize,
  };
}

/** Any vertex loop (crossing itself or not) as a Polygon, bypassing toPolygon's checks. */
function loop(vertices: XY[]): Polygon {
  const xs = vertices.map((v) => v[0]);
  const ys = vertices.map((v) => v[1]);
  return {
    vertices,
    area: 0,
    perimeter: 0,
    minX: Math.min(...xs),
    minY: Math.min(...ys),
    maxX: Math.max(...xs),
    maxY: Math.max(...ys),
  };
}

/** The mask as region-volume.ts computed it before: every cell of the box, ray cast. */
function rayCastCells(f: CellFrame, polygon: Polygon): number[] {
  const c = f.cellSize;
  const col0 = Math.max(0, Math.floor((polygon.minX - f.originX) / c));
  const col1 = Math.min(f.columns - 1, Math.floor((polygon.maxX - f.originX) / c));
  const row0 = Math.max(0, Math.floor((polygon.minY - f.originY) / c));
  const row1 = Math.min(f.rows - 1, Math.floor((polygon.maxY - f.originY) / c));
  const cells: number[] = [];
  for (let row = row0; row <= row1; row++)
    for (let col = col0; col <= col1; col++)
      if (contains(polygon, f.centreX(col), f.centreY(row))) cells.push(row * f.columns + col);
  return cells;
}

function scanlineCells(f: CellFrame, polygon: Polygon): number[] {
  const cells: number[] = [];
  forEachCellInside(f, polygon, (row, col) => cells.push(row * f.columns + col));
  return cells;
}

/** A star-shaped (so simple) polygon around (cx, cy): n vertices at random radii. */
function star(
  next: () => number,
  n: number,
  cx: number,
  cy: number,
  r: number,
  snap?: (v: number) => number,
): XY[] {
  const vertices: XY[] = [];
  for (let k = 0; k < n; k++) {
    const angle = (2 * Math.PI * (k + 0.8 * next())) / n;
    const radius = r * (0.2 + 0.8 * next());
    const x = cx + radius * Math.cos(angle);
    const y = cy + radius * Math.sin(angle);
    vertices.push(snap ? [snap(x), snap(y)] : [x, y]);
  }
  return vertices;
}

describe('region mask: scanline fill against the per-cell ray cast', () => {
  const grid = frame(-13.7, 4.2, 1, 70, 60);

  it('agrees exactly on random star-shaped polygons of 3 to 2,000 vertices', () => {
    const next = random(35);
    for (let trial = 0; trial < 154; trial++) {
      const n = trial < 150 ? 3 + Math.floor(next() * 60) : 500 + Math.floor(next() * 1500);
      const vertices = star(next, n, -13.7 + 70 * next(), 4.2 + 60 * next(), 5 + 40 * next());
      const polygon = toPolygon(vertices, `star-${trial}`);
      const expected = rayCastCells(grid, polygon);
      expect(scanlineCells(grid, polygon)).toEqual(expected);
    }
  });

  it('agrees exactly on self-crossing loops (even-odd), partly off the grid', () => {
    const next = random(180);
    for (let trial = 0; trial < 200; trial++) {
      const n = 3 + Math.floor(next() * 30);
      const vertices: XY[] = [];
      for (let k = 0; k < n; k++) vertices.push([-30 + 110 * next(), -10 + 90 * next()]);
      const polygon = loop(vertices);
      expect(scanlineCells(grid, polygon)).toEqual(rayCastCells(grid, polygon));
    }
  });

  it('agrees exactly when vertices sit on cell centres and cell edges', () => {
    const next = random(7);
    const onCentres = (v: number) => grid.originX + Math.round((v - grid.originX) / 0.25) * 0.25;
    for (let trial = 0; trial < 200; trial++) {
      const n = 3 + Math.floor(next() * 20);
      const vertices = star(next, n, 20 + 10 * next(), 30 + 10 * next(), 4 + 20 * next(), onCentres);
      const polygon = loop(vertices);
      expect(scanlineCells(grid, polygon)).toEqual(rayCastCells(grid, polygon));
    }
    // An axis-aligned square whose edges run exactly through a row and a column of centres.
    const square = loop([
      [grid.centreX(10), grid.centreY(10)],
      [grid.centreX(20), grid.centreY(10)],
      [grid.centreX(20), grid.centreY(20)],
      [grid.centreX(10), grid.centreY(20)],
    ]);
    const cells = scanlineCells(grid, square);
    expect(cells).toEqual(rayCastCells(grid, square));
    expect(cells).toHaveLength(100);
  });

  it('finds nothing for a polygon off the grid, and stays inside the grid for one that covers it', () => {
    const off = loop([
      [-500, -500],
      [-400, -500],
      [-450, -400],
    ]);
    expect(scanlineCells(grid, off)).toEqual([]);
    const cover = loop([
      [-1000, -1000],
      [1000, -1000],
      [1000, 1000],
      [-1000, 1000],
    ]);
    expect(scanlineCells(grid, cover)).toHaveLength(grid.columns * grid.rows);
  });
});
