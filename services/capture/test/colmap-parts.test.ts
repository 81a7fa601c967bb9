// The COLMAP engine's parts that need neither a reconstruction nor photos: the filter on COLMAP's
// text model, the matcher choice and COLMAP's options at scale, a dome measured on the alignment,
// and the EXIF capture date. (The photo checks, the geodetic frame and the abort of a
// COLMAP step need the survey fixtures: colmap-engine.test.ts.)
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Geodetic, Vec3 } from '@fieldops/measure-engine';
import { domeCurvature, type Reference } from '../src/worker/colmap/georeference.ts';
import { takenAtOf } from '../src/worker/colmap/photos.ts';
import { readPoints } from '../src/worker/colmap/sparse-model.ts';
import { featuresFor, mapperOptions, matcherFor } from '../src/worker/colmap/steps.ts';

/** Any position on the ground: the matcher asks only whether every photo has one. */
const SITE: Geodetic = { lat: 52.0907, lon: 5.1214, alt: 12 };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldops-colmap-model-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("COLMAP's text model", () => {
  it('keeps points seen in at least 3 photos with reprojection error under 1 px', async () => {
    const path = join(dir, 'points3D.txt');
    await writeFile(
      path,
      [
        '# 3D point list',
        '1 0 0 1 10 20 30 0.4 1 0 2 0 3 0',
        '2 5 5 2 10 20 30 0.4 1 1 2 1',
        '3 5 5 2 10 20 30 0.4 1 2 1 3 2 2',
        '4 9 9 3 10 20 30 1.5 1 4 2 4 3 4',
        '',
      ].join('\n'),
    );
    const points = await readPoints(path);
    expect({ count: points.count, total: points.total, xyz: [...points.xyz] }).toEqual({
      count: 1,
      total: 4,
      xyz: [0, 0, 1],
    });
  });
});

describe("the keep-filter adapts to the model's own error", () => {
  it('keeps a sound model whose median error is 1.31 px, dropping only what is far off its rays', async () => {
    const path = join(dir, 'sound.txt');
    const errors = [1.2, 1.25, 1.31, 1.31, 1.4, 1.6, 2.1, 6];
    await writeFile(
      path,
      errors.map((e, i) => `${i + 1} ${i} 0 1 10 20 30 ${e} 1 0 2 0 3 0`).join('\n') + '\n',
    );
    const points = await readPoints(path);
    expect(points.filter.maxReprojectionErrorPx).toBeCloseTo(2.62, 5);
    expect({ count: points.count, total: points.total }).toEqual({ count: 7, total: 8 });
    expect(points.medianErrorPx).toBe(1.31);
  });
});

describe('matcher choice', () => {
  const photo = (positioned: boolean) => ({
    file: 'x.jpg',
    label: 'x',
    width: 10,
    height: 10,
    ...(positioned ? { position: SITE } : {}),
  });
  it('matches nearby photos only when every photo has a position', () => {
    expect(matcherFor([photo(true), photo(true)], 'draft', 2).command).toBe('spatial_matcher');
    expect(matcherFor([photo(true), photo(false)], 'draft', 2).command).toBe('exhaustive_matcher');
    expect(
      matcherFor(
        Array.from({ length: 41 }, () => photo(false)),
        'draft',
        2,
      ).command,
    ).toBe('sequential_matcher');
  });
});

describe("COLMAP's options at scale", () => {
  const photos = (n: number, width: number, height: number) =>
    Array.from({ length: n }, (_, i) => ({ file: `${i}.jpg`, label: `${i}`, width, height }));
  it('caps features by the pixels COLMAP works at, within the quality’s cap', () => {
    // 2400 × 1800 worked at 2000 × 1500 (3 MP): 4200 features, within standard's 4096 cap.
    expect(featuresFor(photos(2, 2400, 1800), 'standard')).toBe(4096);
    // 640 × 480 (0.3 MP): the floor of 1000 features.
    expect(featuresFor(photos(2, 640, 480), 'standard')).toBe(1000);
    // Draft works at 1000 × 750: 1050 features.
    expect(featuresFor(photos(2, 4000, 3000), 'draft')).toBe(1050);
  });
  it('runs global bundle adjustment less often from 60 photos on', () => {
    expect(mapperOptions('/w', 2, 59)).not.toHaveProperty(['Mapper.ba_global_images_ratio']);
    expect(mapperOptions('/w', 2, 60)).toMatchObject({ 'Mapper.ba_global_images_ratio': 1.3 });
  });
});

describe('a dome measured on the alignment', () => {
  /** 7 × 7 positions 20 m apart; the aligned centres bend by `curvature` · r², plus `noise` m. */
  function alignment(curvature: number, noise: number) {
    const enu = new Map<string, Vec3>();
    const centres = new Map<string, Vec3>();
    let k = 0;
    for (let i = -3; i <= 3; i++) {
      for (let j = -3; j <= 3; j++) {
        const file = `${i},${j}.jpg`;
        const [x, y] = [20 * i, 20 * j];
        // A fixed pattern of ±noise (deterministic, no draws).
        const wobble = noise * (k++ % 2 === 0 ? 1 : -1);
        enu.set(file, [x, y, 35]);
        centres.set(file, [x, y, 35 + curvature * (x * x + y * y) + wobble]);
      }
    }
    const reference: Reference = { origin: SITE, text: '', enu, spreadM: 170 };
    return { centres, reference };
  }
  it('recovers the curvature of a dome of 2.6 m over 85 m under 0.5 m of position noise', () => {
    const curvature = -2.6 / 85 ** 2;
    const { centres, reference } = alignment(curvature, 0.5);
    const measured = domeCurvature(centres, reference);
    expect(Math.abs(measured! / curvature - 1)).toBeLessThan(0.1);
  });
  it('reports no dome where the residuals are noise alone', () => {
    const { centres, reference } = alignment(0, 0.5);
    expect(domeCurvature(centres, reference)).toBeUndefined();
  });
});

describe('the EXIF capture date', () => {
  it('keeps the offset the camera wrote, and says when there was none', () => {
    expect(takenAtOf({ DateTimeOriginal: '2015:10:16 10:23:45', OffsetTimeOriginal: '+02:00' })).toEqual({
      iso: '2015-10-16T10:23:45+02:00',
      hasOffset: true,
    });
    expect(takenAtOf({ DateTimeOriginal: '2015:10:16 10:23:45', OffsetTime: '-05:00' })?.iso).toBe(
      '2015-10-16T10:23:45-05:00',
    );
    expect(takenAtOf({ DateTimeOriginal: '2015:10:16 10:23:45' })).toEqual({
      iso: '2015-10-16T10:23:45',
      hasOffset: false,
    });
    expect(takenAtOf({ DateTimeOriginal: '0000:00:00 00:00:00' })).toBeUndefined();
  });
});
