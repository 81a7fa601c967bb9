// LAZ read chunk by chunk with laz-perf (issue 35). The real twins of laz-perf's test data
// (Apache-2.0, shared/data/laz-perf/) decode point for point as their LAS; so does the project's
// generated yard written as LAZ (./laz-writer.ts), whose piles measure within their bands and 2 %
// of the truth from the LAZ exactly as from the LAS, in metres and in US survey feet.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { createLazPerf } from 'laz-perf';
import { SITE_PILES, SITE_TRUE_VOLUMES_M3, toeAround } from '@fieldops/survey-fixtures/site';
import {
  bufferSource,
  fileSource,
  isEngineError,
  measureRegions,
  measureSite,
  openPointCloud,
  projectedCloudFrame,
} from '../src/index.ts';
import type { ByteSource, CaptureAccuracy, PointChunk, XY } from '../src/index.ts';
import { CASES, yardIn } from './crs-cases.ts';
import { lasToLaz } from './laz-writer.ts';
import { sharedFile } from './shared-files.ts';

const LIDAR_GCP: CaptureAccuracy = { sensor: 'lidar', control: 'gcp' };

interface Decoded {
  readonly xyz: Float64Array;
  readonly rgb: Uint8Array | undefined;
}

async function decode(source: ByteSource): Promise<Decoded> {
  const reader = await openPointCloud(source);
  const chunks: PointChunk[] = [];
  for await (const chunk of reader.points()) chunks.push(chunk);
  const n = chunks.reduce((sum, c) => sum + c.count, 0);
  const xyz = new Float64Array(n * 3);
  const rgb = reader.header.hasColor ? new Uint8Array(n * 3) : undefined;
  let at = 0;
  for (const c of chunks) {
    for (let i = 0; i < c.count; i++, at++) {
      xyz[at * 3] = c.x[i] as number;
      xyz[at * 3 + 1] = c.y[i] as number;
      xyz[at * 3 + 2] = c.z[i] as number;
    }
    if (rgb && c.rgb) rgb.set(c.rgb, (at - c.count) * 3);
  }
  return { xyz, rgb };
}

/** A source that cannot seek and hands out odd-sized pieces: the reader must stream through. */
function streamOnly(bytes: Uint8Array, name: string): ByteSource {
  const { open } = bufferSource(bytes, name, 4099);
  return { name, size: bytes.byteLength, open };
}

const TWINS = [
  ['autzen_trim.las', 'autzen_trim.laz', 110_000],
  ['extrabytes.las', 'extrabytes.laz', 1065],
  ['point-color-time.las', 'point-color-time.las.laz', 1065],
] as const;

describe('the LAZ twins of laz-perf test data decode point for point', () => {
  for (const [lasName, lazName, count] of TWINS) {
    it(`${lazName} holds the points of ${lasName}`, async () => {
      const lasPath = sharedFile(`data/laz-perf/${lasName}`);
      const lazPath = sharedFile(`data/laz-perf/${lazName}`);
      const expected = await decode(await fileSource(lasPath));
      expect(expected.xyz.length).toBe(count * 3);
      const fromFile = await decode(await fileSource(lazPath));
      expect(fromFile.xyz).toEqual(expected.xyz);
      expect(fromFile.rgb).toEqual(expected.rgb);
      const streamed = await decode(streamOnly(new Uint8Array(readFileSync(lazPath)), lazName));
      expect(streamed.xyz).toEqual(expected.xyz);

      // Header, CRS and units come from the same records as the LAS twin's.
      const las = await openPointCloud(await fileSource(lasPath));
      const laz = await openPointCloud(await fileSource(lazPath));
      const { bounds: lazBounds, ...lazHeader } = laz.header;
      const { bounds: lasBounds, ...lasHeader } = las.header;
      expect(lazHeader).toEqual(lasHeader);
      // The writers of a twin may round a header bound differently in its last bit.
      for (const [key, value] of Object.entries(lasBounds!)) {
        expect(lazBounds![key as keyof typeof lazBounds]).toBeCloseTo(value, 6);
      }
    });
  }

  it('refuses a LAZ cut short inside its chunks, and one whose chunk table does not fit the file', async () => {
    const bytes = new Uint8Array(readFileSync(sharedFile('data/laz-perf/autzen_trim.laz')));
    const code = async (source: ByteSource): Promise<string> => {
      try {
        await decode(source);
      } catch (error) {
        if (isEngineError(error)) return `${error.code}: ${error.message}`;
        throw error;
      }
      return 'accepted';
    };
    expect(await code(bufferSource(bytes.subarray(0, bytes.byteLength - 30_000), 'cut.laz'))).toMatch(
      /^(truncated|malformed): cut\.laz: /,
    );
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const pointDataOffset = view.getUint32(96, true);
    const moved = bytes.slice();
    new DataView(moved.buffer).setBigInt64(
      pointDataOffset,
      view.getBigInt64(pointDataOffset, true) - 10n,
      true,
    );
    expect(await code(bufferSource(moved, 'moved.laz'))).toMatch(
      /^malformed: moved\.laz: its LAZ chunk table/,
    );
  });
});

describe('a LAZ read leaves nothing behind in the process', () => {
  it('adds no process listener, however many files are read', async () => {
    const bytes = new Uint8Array(readFileSync(sharedFile('data/laz-perf/point-color-time.las.laz')));
    const listeners = () => [
      process.listenerCount('uncaughtException'),
      process.listenerCount('unhandledRejection'),
    ];
    const before = listeners();
    for (let i = 0; i < 12; i++) await decode(bufferSource(bytes, `read-${i}.laz`));
    // Emscripten's glue adds one of each on every instantiation (laz-perf-module.ts); each held
    // its module's WebAssembly memory for the life of the process.
    expect(listeners()).toEqual(before);
  });
});

describe("the project's yard written as LAZ", () => {
  it('is a LAZ file laz-perf itself reads whole, with the LAS points, in fixed and in varying chunks', async () => {
    const las = yardIn(CASES[0]!);
    for (const chunks of [20_000, [7_000, 311, 12_345]]) await readWholeByLazPerf(las, lasToLaz(las, chunks));
  });

  it('is decoded chunk by chunk with the LAS points whether its chunks are fixed or vary, as in COPC', async () => {
    const las = yardIn(CASES[0]!);
    const expected = (await decode(bufferSource(las))).xyz;
    for (const chunks of [20_000, [7_000, 311, 12_345]]) {
      expect((await decode(bufferSource(lasToLaz(las, chunks), 'yard.laz'))).xyz).toEqual(expected);
    }
  });

  async function readWholeByLazPerf(las: Uint8Array, laz: Uint8Array): Promise<void> {
    const lazPerf = await (createLazPerf as unknown as () => Promise<WholeFileLazPerf>)();
    const file = lazPerf._malloc(laz.byteLength);
    lazPerf.HEAPU8.set(laz, file);
    const reader = new lazPerf.LASZip();
    reader.open(file, laz.byteLength);
    const recordBytes = reader.getPointLength();
    const point = lazPerf._malloc(recordBytes);
    const lasView = new DataView(las.buffer, las.byteOffset);
    const pointDataOffset = lasView.getUint32(96, true);
    const count = reader.getCount();
    expect(count).toBe(lasView.getUint32(107, true));
    for (let k = 0; k < count; k += 97) {
      reader.getPoint(point);
      const at = pointDataOffset + k * recordBytes;
      expect([...lazPerf.HEAPU8.subarray(point, point + recordBytes)]).toEqual([
        ...las.subarray(at, at + recordBytes),
      ]);
      for (let skip = 1; skip < 97 && k + skip < count; skip++) reader.getPoint(point);
    }
    reader.delete();
  }

  for (const c of CASES.filter((k) => k.file?.minor !== 4)) {
    it(`${c.title}: measures both piles from the LAZ, and the whole capture as from the LAS`, async () => {
      const las = yardIn(c);
      const laz = lasToLaz(las, 20_000);
      const reader = await openPointCloud(bufferSource(laz, 'yard.laz'));
      expect(reader.header.horizontalUnit).toMatchObject({ name: c.expected.unit });
      const frame = projectedCloudFrame(reader.header.crs!, reader.header.verticalUnit);
      const toe = (p: (typeof SITE_PILES)['north']): XY[] =>
        toeAround(p, 3, 12, c.origin).map(({ lat, lng }) => {
          const [x, y] = frame.place(lat, lng);
          return [x, y];
        });
      const regions = [
        { id: 'north', polygon: toe(SITE_PILES.north) },
        { id: 'south', polygon: toe(SITE_PILES.south) },
      ];
      const fromLaz = await measureRegions(bufferSource(laz, 'yard.laz'), regions, { accuracy: LIDAR_GCP });
      for (const id of ['north', 'south'] as const) {
        const region = fromLaz.regions.find((r) => r.regionId === id)!;
        const truth = SITE_TRUE_VOLUMES_M3[id];
        expect(Math.abs(region.net - truth)).toBeLessThanOrEqual(region.bands.net!.plusMinus);
        expect(Math.abs(region.net - truth) / truth).toBeLessThan(0.02);
      }
      const whole = await measureSite(bufferSource(laz, 'yard.laz'), undefined, { accuracy: LIDAR_GCP });
      const wholeLas = await measureSite(bufferSource(las, 'yard.las'), undefined, { accuracy: LIDAR_GCP });
      expect(whole.rollup.net).toBe(wholeLas.rollup.net);
      expect(whole.capture.horizontalUnit.name).toBe(c.expected.unit);
    });
  }
});

interface WholeFileLazPerf {
  readonly HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  readonly LASZip: new () => {
    open(pointer: number, length: number): void;
    getPoint(pointer: number): void;
    getCount(): number;
    getPointLength(): number;
    delete(): void;
  };
}
