// A growable batch of points that readers fill and hand out as PointChunks.
import { POINT_CHUNK_SIZE } from '../limits.ts';
import type { PointChunk } from '../types.ts';

export class PointBatch {
  private x = new Float64Array(POINT_CHUNK_SIZE);
  private y = new Float64Array(POINT_CHUNK_SIZE);
  private z = new Float64Array(POINT_CHUNK_SIZE);
  private rgb: Uint8Array | undefined;
  count = 0;

  private readonly withColor: boolean;
  constructor(withColor: boolean) {
    this.withColor = withColor;
    if (withColor) this.rgb = new Uint8Array(POINT_CHUNK_SIZE * 3);
  }

  get full(): boolean {
    return this.count === POINT_CHUNK_SIZE;
  }

  push(x: number, y: number, z: number, r = 0, g = 0, b = 0): void {
    const i = this.count++;
    this.x[i] = x;
    this.y[i] = y;
    this.z[i] = z;
    if (this.rgb) {
      this.rgb[i * 3] = r;
      this.rgb[i * 3 + 1] = g;
      this.rgb[i * 3 + 2] = b;
    }
  }

  /** Hands the points out and starts a fresh batch (the arrays go to the consumer). */
  flush(): PointChunk {
    const n = this.count;
    const chunk: PointChunk = {
      count: n,
      x: this.x.subarray(0, n),
      y: this.y.subarray(0, n),
      z: this.z.subarray(0, n),
      ...(this.rgb ? { rgb: this.rgb.subarray(0, n * 3) } : {}),
    };
    this.x = new Float64Array(POINT_CHUNK_SIZE);
    this.y = new Float64Array(POINT_CHUNK_SIZE);
    this.z = new Float64Array(POINT_CHUNK_SIZE);
    if (this.withColor) this.rgb = new Uint8Array(POINT_CHUNK_SIZE * 3);
    this.count = 0;
    return chunk;
  }
}
