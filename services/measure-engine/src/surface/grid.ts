// The gridded surface: points binned into square cells, each cell keeping its count, sum, sum of
// squares, minimum and maximum, so its value and the uncertainty of that value come out of the
// same pass. Empty cells near measured ones are filled by interpolation; the rest stay void.
import { MAX_FILL_DISTANCE_CELLS } from '../limits.js';
import type { CellStatistic } from '../types.js';

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
  private readonly min: Float64Array;
  private readonly max: Float64Array;
  /** Cell value (m) after finish(); NaN for void cells. */
  readonly value: Float64Array;
  /** Variance (m²) of each cell's value as an estimate of the surface over the cell. */
  readonly variance: Float64Array;
  readonly state: Uint8Array;
  /** Subtracted before squaring so the sums keep their precision far from the origin. */
  private zRef = Number.NaN;

  constructor(
    readonly originX: number,
    readonly originY: number,
    readonly cellSize: number,
    readonly columns: number,
    readonly rows: number,
  ) {
    const cells = columns * rows;
    this.count = new Uint32Array(cells);
    this.sum = new Float64Array(cells);
    this.sumSq = new Float64Array(cells);
    this.min = new Float64Array(cells).fill(Number.POSITIVE_INFINITY);
    this.max = new Float64Array(cells).fill(Number.NEGATIVE_INFINITY);
    this.value = new Float64Array(cells).fill(Number.NaN);
    this.variance = new Float64Array(cells).fill(Number.NaN);
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
    if (z < (this.min[i] as number)) this.min[i] = z;
    if (z > (this.max[i] as number)) this.max[i] = z;
    return true;
  }

  /**
   * Turns the sums into cell values and variances, then fills voids. A cell's variance is that of
   * its mean: the spread of its own points (terrain inside the cell plus sensor noise, never less
   * than `pointSigma`) over its count. A single-point cell borrows the grid's median spread.
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
      const spread = n >= 2 ? Math.max(0, ((this.sumSq[i] as number) - (s * s) / n) / (n - 1)) : medianSpread;
      this.value[i] =
        statistic === 'min'
          ? (this.min[i] as number)
          : statistic === 'max'
            ? (this.max[i] as number)
            : this.zRef + s / n;
      this.variance[i] = Math.max(spread, floor) / n;
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
