// The PLY and LAS readers on bytes written here: every coordinate read back, chunk boundaries in
// awkward places, and each refusal with its engine code.
import { describe, expect, it } from '@jest/globals';
import { bufferSource } from '../src/io/byte-source.ts';
import { openPointCloud } from '../src/readers/open-point-cloud.ts';
import { EngineError } from '../src/errors.ts';
import type { PointReader } from '../src/types.ts';
import { las, plyAscii, plyBinary, scatter } from './point-clouds.ts';
import type { Cloud } from './point-clouds.ts';

const cloud: Cloud = scatter((x, y) => 100 + 0.1 * x - 0.2 * y, {
  x0: 500_000,
  y0: 4_000_000,
  size: 10,
  density: 3,
  sigma: 0.01,
});

async function readAll(reader: PointReader) {
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  let colors: number[] = [];
  for await (const chunk of reader.points()) {
    xs.push(...chunk.x);
    ys.push(...chunk.y);
    zs.push(...chunk.z);
    if (chunk.rgb) colors = [...colors, ...chunk.rgb.subarray(0, 3)];
  }
  return { xs, ys, zs, colors };
}

async function engineCode(bytes: Uint8Array, name = 'f'): Promise<string> {
  try {
    const reader = await openPointCloud(bufferSource(bytes, name));
    await readAll(reader);
  } catch (error) {
    if (error instanceof EngineError) return error.code;
    throw error;
  }
  return 'no error';
}

function expectSame(got: { xs: number[]; ys: number[]; zs: number[] }, tolerance: number): void {
  expect(got.xs).toHaveLength(cloud.x.length);
  for (const k of [0, 1, 77, cloud.x.length - 1]) {
    expect(Math.abs((got.xs[k] as number) - (cloud.x[k] as number))).toBeLessThanOrEqual(tolerance);
    expect(Math.abs((got.ys[k] as number) - (cloud.y[k] as number))).toBeLessThanOrEqual(tolerance);
    expect(Math.abs((got.zs[k] as number) - (cloud.z[k] as number))).toBeLessThanOrEqual(tolerance);
  }
}

describe('PLY reader', () => {
  it('reads ascii with chunks that split lines and the header', async () => {
    const reader = await openPointCloud(bufferSource(plyAscii(cloud), 'a.ply', 13));
    expect(reader.header).toMatchObject({ format: 'ply', variant: 'ascii', declaredCount: cloud.x.length });
    expectSame(await readAll(reader), 0);
  });

  it('reads binary little endian doubles and big endian floats with colour', async () => {
    const le = await openPointCloud(bufferSource(plyBinary(cloud), 'le.ply', 1000));
    expectSame(await readAll(le), 0);
    const small = scatter(() => 3, { size: 4, density: 2, sigma: 0.01 });
    const be = await openPointCloud(
      bufferSource(plyBinary(small, { little: false, type: 'float', color: true }), 'be.ply', 7),
    );
    expect(be.header.hasColor).toBe(true);
    const got = await readAll(be);
    expect(got.xs).toHaveLength(small.x.length);
    expect(Math.abs((got.zs[5] as number) - (small.z[5] as number))).toBeLessThan(1e-5);
    expect(got.colors).toEqual([10, 20, 30]);
  });

  it('skips and counts non-finite vertices in ascii', async () => {
    const text =
      'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 2 3\nnan 2 3\n4 5 6\n';
    const reader = await openPointCloud(bufferSource(new TextEncoder().encode(text)));
    const got = await readAll(reader);
    expect(got.xs).toEqual([1, 4]);
    expect(reader.skippedNonFinite).toBe(1);
  });

  it('refuses truncated, malformed and unknown files with their codes', async () => {
    const binary = plyBinary(cloud);
    expect(await engineCode(binary.subarray(0, binary.byteLength - 10))).toBe('truncated');
    expect(
      await engineCode(
        new TextEncoder().encode(
          'ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n',
        ),
      ),
    ).toBe('malformed');
    expect(await engineCode(new TextEncoder().encode('ply\nformat ascii 2.0\nend_header\n'))).toBe(
      'malformed',
    );
    expect(
      await engineCode(
        new TextEncoder().encode(
          'ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 two 3\n',
        ),
      ),
    ).toBe('malformed');
    expect(await engineCode(new TextEncoder().encode('solid cube\n'))).toBe('unsupported_format');
    expect(await engineCode(new Uint8Array([0x70]))).toBe('truncated');
  });
});

describe('LAS reader', () => {
  it('reads LAS 1.2 format 0 to the millimetre of its scale', async () => {
    const reader = await openPointCloud(bufferSource(las(cloud), 'a.las', 4096));
    expect(reader.header).toMatchObject({
      format: 'las',
      variant: '1.2',
      pointRecordFormat: 0,
      declaredCount: cloud.x.length,
    });
    expectSame(await readAll(reader), 0.0005 + 1e-9);
  });

  it('reads LAS 1.4 format 6 (64-bit count) and format 2 colour', async () => {
    const v14 = await openPointCloud(bufferSource(las(cloud, { minor: 4 }), 'b.las', 333));
    expect(v14.header.variant).toBe('1.4');
    expectSame(await readAll(v14), 0.0005 + 1e-9);
    const coloured = await openPointCloud(bufferSource(las(cloud, { format: 2 })));
    expect((await readAll(coloured)).colors).toEqual([
      Math.floor(1000 / 256),
      Math.floor(2000 / 256),
      Math.floor(3000 / 256),
    ]);
  });

  it('takes the linear unit from the GeoTIFF keys', async () => {
    const reader = await openPointCloud(bufferSource(las(cloud, { linearUnitEpsg: 9003 })));
    expect(reader.header.horizontalUnit.name).toBe('us-survey-foot');
    expect(reader.header.crs?.epsg).toBe(2263);
  });

  it('refuses a cut-short file, LAZ without its LASzip record, and geographic coordinates', async () => {
    const bytes = las(cloud);
    expect(await engineCode(bytes.subarray(0, bytes.byteLength - 5))).toBe('truncated');
    const laz = las(cloud).slice();
    laz[104] = 0x80;
    expect(await engineCode(laz)).toBe('malformed');
    const geographic = las(cloud, { linearUnitEpsg: 9001 }).slice();
    new DataView(geographic.buffer).setUint16(227 + 54 + 8 + 6, 2, true);
    expect(await engineCode(geographic)).toBe('unsupported_format');
    const future = las(cloud).slice();
    future[25] = 5;
    expect(await engineCode(future)).toBe('unsupported_format');
  });
});
