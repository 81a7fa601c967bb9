// The engine's throughput, shared by the standalone script (engine-throughput.ts) and `npm run
// bench` (scripts/bench/measurements.ts): a LAS file of N points written to a temporary directory,
// then one stockpile region measured on it and timed.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSource, measureRegions } from '../src/index.ts';

const SIDE = 200;
const HEADER = 227;
const RECORD = 20;
const SCALE = 0.001;
/** The cone's true volume: 40 m across (r = 20 m), 8 m high. */
export const CONE_VOLUME = (Math.PI * 400 * 8) / 3;

export interface EngineThroughput {
  bench: 'measurement-engine';
  points: number;
  /** Measuring only; writing the file is not counted. */
  seconds: number;
  pointsPerSecond: number;
  cellSizeM: number;
  net: number | undefined;
  trueVolume: number;
  band: unknown;
}

/** mulberry32: fast, and successive draws are independent (x and y must not correlate). */
function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function lasHeader(points: number): Buffer {
  const header = Buffer.alloc(HEADER);
  header.write('LASF', 0, 'latin1');
  header.writeUInt8(1, 24);
  header.writeUInt8(2, 25);
  header.writeUInt16LE(HEADER, 94);
  header.writeUInt32LE(HEADER, 96);
  header.writeUInt8(0, 104);
  header.writeUInt16LE(RECORD, 105);
  header.writeUInt32LE(points, 107);
  for (let i = 0; i < 3; i++) header.writeDoubleLE(SCALE, 131 + 8 * i);
  [SIDE, 0, SIDE, 0, 20, 0].forEach((v, i) => header.writeDoubleLE(v, 179 + 8 * i));
  return header;
}

/** A cone 40 m across and 8 m high on a flat pad, LAS 1.2 format 0, written in 1 MiB blocks. */
export function writeConeLas(path: string, points: number): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, lasHeader(points));
    const perBlock = 50_000;
    const block = Buffer.alloc(perBlock * RECORD);
    const random = mulberry32(1);
    for (let written = 0; written < points; written += perBlock) {
      const n = Math.min(perBlock, points - written);
      for (let k = 0; k < n; k++) {
        const x = random() * SIDE;
        const y = random() * SIDE;
        const z = 10 + Math.max(0, 8 * (1 - Math.hypot(x - 100, y - 100) / 20)) + (random() - 0.5) * 0.04;
        block.writeInt32LE(Math.round(x / SCALE), k * RECORD);
        block.writeInt32LE(Math.round(y / SCALE), k * RECORD + 4);
        block.writeInt32LE(Math.round(z / SCALE), k * RECORD + 8);
      }
      writeSync(fd, block, 0, n * RECORD);
    }
  } finally {
    closeSync(fd);
  }
}

/** Writes a cloud of `points` points, measures the pile on it, and removes the file. */
export async function measureEngineThroughput(points: number): Promise<EngineThroughput> {
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-engine-bench-'));
  try {
    const path = join(dir, 'site.las');
    writeConeLas(path, points);
    const started = performance.now();
    const q = await measureRegions(
      await fileSource(path),
      [
        {
          id: 'pile',
          polygon: [
            [70, 70],
            [130, 70],
            [130, 130],
            [70, 130],
          ],
        },
      ],
      { accuracy: { sensor: 'lidar', control: 'gcp' } },
    );
    const seconds = (performance.now() - started) / 1000;
    const pile = q.regions[0];
    return {
      bench: 'measurement-engine',
      points,
      seconds: Number(seconds.toFixed(2)),
      pointsPerSecond: Math.round(points / seconds),
      cellSizeM: q.surface.cellSizeM,
      net: pile?.net,
      trueVolume: CONE_VOLUME,
      band: pile?.bands.net,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
