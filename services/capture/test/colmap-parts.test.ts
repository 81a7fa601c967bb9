// The COLMAP engine's parts that need neither a reconstruction nor photos: the filter on COLMAP's
// text model and the matcher choice. (The photo checks, the geodetic frame and the abort of a
// COLMAP step need the survey fixtures: colmap-engine.test.ts.)
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Geodetic } from '../src/worker/colmap/geodesy.js';
import { readPoints } from '../src/worker/colmap/sparse-model.js';
import { matcherFor } from '../src/worker/colmap/steps.js';

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
