// The gridded surface: points binned into square cells, each cell keeping its count and the moments
// of its points (or its minimum and maximum), so its value and the uncertainty of that value come
// out of the same pass. Empty cells near measured ones are filled by interpolation; the rest stay void.
//
// A cell's 'mean' value is the height at the cell's centre of the plane fitted to its points, not
// their plain mean: the points of a cell rarely sit evenly around its centre (a regular scan grid
// beats against the cell grid), and on a slope their mean is the height somewhere else. That
// offset, summed over a pile's flanks, was a volume bias of several percent.
import { MAX_FILL_DISTANCE_CELLS } from '../limits.ts';
import { solve3 } from '../geometry/base-plane.ts';
import type { CellStatistic } from '../types.ts';

/** A cell plane is used when its centre height is known at least this well (× the mean's variance). */
const MAX_PLANE_INFLATION = 8;

/** Moments of a cell's points about its centre: x and y in cell units, z about the grid's reference. */
class CellMoments {
  readonly x: Float32Array;
  readonly y: Float32Array;
  readonly xx: Float32Array;
  readonly xy: Float32Array;
  readonly yy: Float32Array;
  readonly xz: Float64Array;
  readonly yz: Float64Array;

  constructor(cells: number) {
    this.x = new Float32Array(cells);
    this.y = new Float32Array(cells);
    this.xx = new Float32Array(cells);
    this.xy = new Float32Array(cells);
    this.yy = new Float32Array(cells);
    this.xz = new Float64Array(cells);
    this.yz = new Float64Array(cells);
  }

  add(i: number, u: number, v: number, d: number): void {
    this.x[i] = (this.x[i] as number) + u;
    this.y[i] = (this.y[i] as number) + v;
    this.xx[i] = (this.xx[i] as number) + u * u;
    this.xy[i] = (this.xy[i] as number) + u * v;
    this.yy[i] = (this.yy[i] as number) + v * v;
    this.xz[i] = (this.xz[i] as number) + u * d;
    this.yz[i] = (this.yz[i] as number) + v * d;
  }
}

/** The least-squares plane of a cell's points: its height at the centre, and their residual variance. */
interface CellPlane {
  readonly centre: number;
  /** Variance of `centre` per unit point variance: ((AᵀA)⁻¹)₀₀, 1/n for a plain mean. */
  readonly factor: number;
  readonly residualVariance: number;
}

/** What a cell of the grid holds. */
export const CellState = { Void: 0, Measured: 1, Interpolated: 2 } as const;

export interface GridFrame {
  readonly originX: number;
  readonly originY: number;
  readonly cellSize: number;
  readonly columns: number;
  readonly rows: number;
}

export class SurfaceGrid implements GridFrame {
  readonly count: Uint32Array;
  private readonly sum: Float64Array;
  private readonly sumSq: Float64Array;
  /** Only for the 'min' and 'max' statistics. */
  private readonly min?: Float64Array;
  private readonly max?: Float64Array;
  /** Only for the 'mean' statistic. */
  private readonly moments?: CellMoments;
  /** Cell value (m) after finish(); NaN for void cells. */
  readonly value: Float64Array;
  /** Variance (m²) of each cell's value as an estimate of the surface over the cell. */
  readonly variance: Float64Array;
  /**
   * Scatter (m) of a cell's points about its value beyond the point noise: the terrain bending
   * inside the cell, which a cell's plane cannot follow. 0 for interpolated cells.
   */
  readonly roughness: Float32Array;
  readonly state: Uint8Array;
  /** Subtracted before squaring so the sums keep their precision far from the origin. */
  private zRef = Number.NaN;

  readonly originX: number;
  readonly originY: number;
  readonly cellSize: number;
  readonly columns: number;
  readonly rows: number;
  constructor(
    originX: number,
    originY: number,
    cellSize: number,
    columns: number,
    rows: number,
    statistic: CellStatistic | 'count' = 'mean',
  ) {
    this.originX = originX;
    this.originY = originY;
    this.cellSize = cellSize;
    this.columns = columns;
    this.rows = rows;
    const cells = columns * rows;
    this.count = new Uint32Array(cells);
    this.sum = new Float64Array(cells);
    this.sumSq = new Float64Array(cells);
    if (statistic === 'min' || statistic === 'max') {
      this.min = new Float64Array(cells).fill(Number.POSITIVE_INFINITY);
      this.max = new Float64Array(cells).fill(Number.NEGATIVE_INFINITY);
    } else if (statistic === 'mean') {
      this.moments = new CellMoments(cells);
    }
    this.value = new Float64Array(cells).fill(Number.NaN);
    this.variance = new Float64Array(cells).fill(Number.NaN);
    this.roughness = new Float32Array(cells);
    this.state = new Uint8Array(cells);
  }

  /** The cell index of (x, y), or -1 outside the grid. */
  cellAt(x: number, y: number): number {
    const col = Math.floor((x - this.originX) / this.cellSize);
    const row = Math.floor((y - this.originY) / this.cellSize);
    if (col < 0 || row < 0 || col >= this.columns || row >= this.rows) return -1;
    return row * this.columns + col;
  }

  centreX(col: number): number {
    return this.originX + (col + 0.5) * this.cellSize;
  }

  centreY(row: number): number {
    return this.originY + (row + 0.5) * this.cellSize;
  }

  /** Adds one point; false when it falls outside the grid. */
  add(x: number, y: number, z: number): boolean {
    const i = this.cellAt(x, y);
    if (i < 0) return false;
    if (Number.isNaN(this.zRef)) this.zRef = z;
    const d = z - this.zRef;
    this.count[i] = (this.count[i] as number) + 1;
    this.sum[i] = (this.sum[i] as number) + d;
    this.sumSq[i] = (this.sumSq[i] as number) + d * d;
    if (this.min && this.max) {
      if (z < (this.min[i] as number)) this.min[i] = z;
      if (z > (this.max[i] as number)) this.max[i] = z;
    }
    if (this.moments) {
      const col = i % this.columns;
      const row = (i - col) / this.columns;
      const u = (x - this.originX) / this.cellSize - col - 0.5;
      const v = (y - this.originY) / this.cellSize - row - 0.5;
      this.moments.add(i, u, v, d);
    }
    return true;
  }

  /** The plane through cell i's points, or null when they do not determine one well. */
  private cellPlane(i: number): CellPlane | null {
    const m = this.moments;
    const n = this.count[i] as number;
    if (!m || n < 4) return null;
    const sx = m.x[i] as number;
    const sy = m.y[i] as number;
    const sxy = m.xy[i] as number;
    const normal = [n, sx, sy, sx, m.xx[i] as number, sxy, sy, sxy, m.yy[i] as number];
    const s = this.sum[i] as number;
    const solved = solve3(normal, [s, m.xz[i] as number, m.yz[i] as number]);
    if (!solved) return null;
    const factor = solved.inverse[0] as number;
    if (!(factor > 0) || factor * n > MAX_PLANE_INFLATION) return null;
    const [a, b, c] = solved.x as [number, number, number];
    const residual = (this.sumSq[i] as number) - a * s - b * (m.xz[i] as number) - c * (m.yz[i] as number);
    return { centre: a, factor, residualVariance: Math.max(0, residual / (n - 3)) };
  }

  /**
   * Turns the sums into cell values and variances, then fills voids. A cell's variance is that of
   * its value: the spread of its own points about their plane (or about their mean when no plane
   * is determined; terrain inside the cell plus sensor noise, never less than `pointSigma`) times
   * the value's variance factor (1/n for a mean). A single-point cell borrows the grid's median spread.
   */
  finish(statistic: CellStatistic, pointSigma: number): void {
    const floor = pointSigma * pointSigma;
    const spreads: number[] = [];
    for (let i = 0; i < this.count.length; i++) {
      const n = this.count[i] as number;
      if (n < 2) continue;
      const s = this.sum[i] as number;
      spreads.push(Math.max(0, ((this.sumSq[i] as number) - (s * s) / n) / (n - 1)));
    }
    spreads.sort((a, b) => a - b);
    const medianSpread = spreads.length > 0 ? (spreads[spreads.length >> 1] as number) : 0;
    for (let i = 0; i < this.count.length; i++) {
      const n = this.count[i] as number;
      if (n === 0) continue;
      const s = this.sum[i] as number;
      const plane = statistic === 'mean' ? this.cellPlane(i) : null;
      const spread = plane
        ? plane.residualVariance
        : n >= 2
          ? Math.max(0, ((this.sumSq[i] as number) - (s * s) / n) / (n - 1))
          : medianSpread;
      this.value[i] =
        statistic === 'min'
          ? (this.min?.[i] as number)
          : statistic === 'max'
            ? (this.max?.[i] as number)
            : this.zRef + (plane ? plane.centre : s / n);
      this.variance[i] = Math.max(spread, floor) * (plane ? plane.factor : 1 / n);
      this.roughness[i] = Math.sqrt(Math.max(0, spread - floor));
      this.state[i] = CellState.Measured;
    }
    this.fillVoids();
  }

  /**
   * Ring by ring, up to MAX_FILL_DISTANCE_CELLS from measured cells, an empty cell takes the mean
   * of its filled neighbours. Its variance adds the neighbours' own to their spread, because an
   * interpolated cell on a slope or an edge is known only as well as the terrain is smooth.
   */
  private fillVoids(): void {
    for (let ring = 0; ring < MAX_FILL_DISTANCE_CELLS; ring++) {
      const updates: [number, number, number][] = [];
      for (let row = 0; row < this.rows; row++) {
        for (let col = 0; col < this.columns; col++) {
          const i = row * this.columns + col;
          if (this.state[i] !== CellState.Void) continue;
          const filled = this.neighbourValues(row, col);
          if (filled.values.length < 2) continue;
          const mean = filled.values.reduce((a, b) => a + b, 0) / filled.values.length;
          const spread = filled.values.reduce((a, v) => a + (v - mean) ** 2, 0) / (filled.values.length - 1);
          updates.push([i, mean, filled.variance / filled.values.length + spread]);
        }
      }
      if (updates.length === 0) return;
      for (const [i, mean, variance] of updates) {
        this.value[i] = mean;
        this.variance[i] = variance;
        this.state[i] = CellState.Interpolated;
      }
    }
  }

  private neighbourValues(row: number, col: number): { values: number[]; variance: number } {
    const values: number[] = [];
    let variance = 0;
    for (let dr = -1; dr <= 1; dr++) {
      for (let dc = -1; dc <= 1; dc++) {
        const r = row + dr;
        const c = col + dc;
        if ((dr === 0 && dc === 0) || r < 0 || c < 0 || r >= this.rows || c >= this.columns) continue;
        const j = r * this.columns + c;
        if (this.state[j] === CellState.Void) continue;
        values.push(this.value[j] as number);
        variance += this.variance[j] as number;
      }
    }
    return { values, variance };
  }
}
