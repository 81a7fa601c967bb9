// Where a stored cloud sits on the earth (quantities/cloud-frame.ts): the origin the COLMAP engine
// writes into its PLY header is read back, a LAS in a WGS 84 / UTM zone is placed by that
// projection, a cloud stating neither is refused with a sentence, and a WGS 84 position lands in
// the east-north-up frame where geodesy puts it.
import { describe, expect, it } from '@jest/globals';
import { bufferSource, toLocalEnu } from '@fieldops/measure-engine';
import { las, scatter } from '@fieldops/measure-engine/testing';
import { cloudFrame, statedOrigin } from '../src/quantities/cloud-frame.ts';

const ply = (comment: string) =>
  bufferSource(
    new TextEncoder().encode(
      `ply\nformat ascii 1.0\n${comment}element vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n`,
    ),
    'points.ply',
  );

describe('cloud frame', () => {
  it('reads the origin the COLMAP engine states in its PLY header', async () => {
    // The line colmap.engine.ts writes (its format, with its own numbers).
    const colmap =
      'comment fieldops colmap sparse points: metres east, north, up of lat 52.0907000 lon -5.1214000 alt 112.50; alignment rmse 1.234 m\n';
    expect(await statedOrigin(ply(colmap))).toEqual({ lat: 52.0907, lng: -5.1214, alt: 112.5 });
  });

  it('refuses a cloud that states no origin, saying what to do', async () => {
    expect(await statedOrigin(ply('comment synthetic\n'))).toBeNull();
    expect(await statedOrigin(bufferSource(new Uint8Array([76, 65, 83, 70]), 'scan.las'))).toBeNull();
    await expect(cloudFrame([ply('')])).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/points\.ply does not state where it lies on the earth/),
    });
  });

  it('places a LAS by its WGS 84 / UTM zone, and refuses one whose CRS contradicts itself or names none', async () => {
    const ground = scatter(() => 10, { x0: 500_000, y0: 5_700_000, size: 10, density: 1, sigma: 0 });
    const utm = bufferSource(las(ground, { linearUnitEpsg: 9001, projectedCrsEpsg: 32630 }), 'odm.las');
    const frame = await cloudFrame([utm]);
    expect(frame.name).toBe('WGS 84 / UTM zone 30N (EPSG:32630)');
    // 3° W is zone 30's central meridian: easting 500 000 m; heights pass through.
    const [easting, , z] = frame.place(51.44, -3, 72);
    expect(easting).toBeCloseTo(500_000, 3);
    expect(z).toBe(72);
    // Unit keys that contradict the EPSG code (2263 is in US survey feet, 32630 in metres).
    for (const [name, options] of [
      ['stateplane.las', { linearUnitEpsg: 9001, projectedCrsEpsg: 2263 }],
      ['feet.las', { linearUnitEpsg: 9002, projectedCrsEpsg: 32630 }],
      ['bare.las', {}],
    ] as const) {
      await expect(cloudFrame([bufferSource(las(ground, options), name)])).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringContaining(`${name} does not state where it lies on the earth`),
      });
    }
  });

  it('places a LAS in a State Plane zone in US survey feet by its EPSG code alone, in feet', async () => {
    const ground = scatter(() => 10, { x0: 1_000_000, y0: 200_000, size: 10, density: 1, sigma: 0 });
    const file = las(ground, {
      geoKeys: [
        [1024, 1],
        [3072, 2263],
      ],
    });
    const frame = await cloudFrame([bufferSource(file, 'longisland.las')]);
    expect(frame.name).toBe('NAD83 / New York Long Island (ftUS) (EPSG:2263)');
    // The zone's origin: 40°10' N, 74° W at 300 000 m false easting, 0 northing; heights in feet.
    const [x, y, z] = frame.place(40 + 1 / 6, -74, 30.48);
    expect(x).toBeCloseTo(300_000 / (1200 / 3937), 3);
    expect(y).toBeCloseTo(0, 3);
    expect(z).toBeCloseTo(30.48 / (1200 / 3937), 9);
  });

  it('places a WGS 84 position east, north and up of the origin', () => {
    const origin = { lat: 51.4412, lng: -0.9418, alt: 72 };
    const [east, north, up] = toLocalEnu(origin, 51.4422, -0.9418);
    // 0.001° of latitude at 51.44° N is 111.26 m on the WGS 84 ellipsoid; the level surface falls away.
    expect(east).toBeCloseTo(0, 6);
    expect(north).toBeCloseTo(111.26, 1);
    expect(up).toBeCloseTo(-(north ** 2) / (2 * 6_381_000), 3);
    const [e2] = toLocalEnu(origin, 51.4412, -0.9408);
    expect(e2).toBeCloseTo(69.5, 0);
  });
});
