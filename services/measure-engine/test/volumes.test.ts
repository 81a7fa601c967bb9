// The engine on shapes of known volume: a cone, a frustum and a box pit, each on a tilted pad the
// engine has to fit. Every computed figure must land within its own band of the true value, the
// band must not be wider than needed, and it must shrink as the point density rises.
import { describe, expect, it } from '@jest/globals';
import { bufferSource } from '../src/io/byte-source.ts';
import { measureRegions, measureSite } from '../src/index.ts';
import type { CaptureAccuracy, RegionInput, SiteQuantities, XY } from '../src/index.ts';
import { cone, frustum, las, onPlane, pit, plyBinary, scatter } from './point-clouds.ts';

const LIDAR_GCP: CaptureAccuracy = { sensor: 'lidar', control: 'gcp' };
const square = (x0: number, y0: number, size: number): XY[] => [
  [x0, y0],
  [x0 + size, y0],
  [x0 + size, y0 + size],
  [x0, y0 + size],
];

function expectWithinBand(figure: number, truth: number, band: { plusMinus: number } | undefined): void {
  expect(band).toBeDefined();
  expect(Math.abs(figure - truth)).toBeLessThanOrEqual((band as { plusMinus: number }).plusMinus);
}

async function measure(
  bytes: Uint8Array,
  regions: RegionInput[],
  accuracy = LIDAR_GCP,
): Promise<SiteQuantities> {
  return measureRegions(bufferSource(bytes, 'site.ply'), regions, { accuracy });
}

describe('volumes of known shapes', () => {
  const R = 10;
  const H = 5;
  const coneVolume = (Math.PI * R * R * H) / 3;
  const coneSite = onPlane(cone(20, 20, R, H), 50, 0.02, -0.01);

  it('measures a cone on a tilted pad within its band, and the band is tight for dense lidar', async () => {
    const cloud = scatter(coneSite, { size: 40, density: 25, sigma: 0.02 });
    const q = await measure(plyBinary(cloud), [
      { id: 'pile', polygon: square(7, 7, 26), material: 'gravel' },
    ]);
    const pile = q.regions[0];
    if (!pile) throw new Error('no region');
    expectWithinBand(pile.fill, coneVolume, pile.bands.fill);
    expectWithinBand(pile.net, coneVolume, pile.bands.net);
    expectWithinBand(pile.cut, 0, pile.bands.cut);
    expectWithinBand(pile.footprint, 26 * 26, pile.bands.footprint);
    expect(pile.bands.net?.relativeFraction).toBeLessThan(0.03);
    expect(pile.bands.net).toMatchObject({ unit: 'm3', confidence: 0.95 });
    expect(pile.bands.footprint?.unit).toBe('m2');
    // Tonnage: gravel at 1.7 t/m³, banded with the density's own spread.
    expectWithinBand(pile.tonnage ?? NaN, coneVolume * 1.7, pile.bands.tonnage);
    expect(pile.bands.tonnage).toMatchObject({ unit: 't' });
    expect(pile.base.plane?.sx).toBeCloseTo(0.02, 2);
    expect(q.surface.cellSizeChosenFromDensity).toBe(true);
    expect(q.surface.cellSizeM).toBeCloseTo(Math.sqrt(4 / 25), 1);
  });

  it('narrows the band as the density rises', async () => {
    const widths: number[] = [];
    // Sparse clouds grid coarsely, and the spread of each cell over the slope is what the band
    // reports; once cells are small the correlated error of the capture is what is left.
    for (const density of [0.5, 2, 8]) {
      const cloud = scatter(coneSite, { size: 40, density, sigma: 0.02, seed: Math.round(density * 10) });
      const q = await measure(plyBinary(cloud), [{ id: 'pile', polygon: square(7, 7, 26) }]);
      const pile = q.regions[0];
      if (!pile) throw new Error('no region');
      expectWithinBand(pile.net, coneVolume, pile.bands.net);
      widths.push(pile.bands.net?.plusMinus ?? NaN);
    }
    expect(widths[1]).toBeLessThan(widths[0] as number);
    expect(widths[2]).toBeLessThan(widths[1] as number);
  });

  it('widens the band without ground control and for photogrammetry', async () => {
    const cloud = plyBinary(scatter(coneSite, { size: 40, density: 10, sigma: 0.03 }));
    const regions = [{ id: 'pile', polygon: square(7, 7, 26) }];
    const withGcp = await measure(cloud, regions, { sensor: 'photogrammetry', control: 'gcp' });
    const without = await measure(cloud, regions, { sensor: 'photogrammetry', control: 'none' });
    const lidar = await measure(cloud, regions, { sensor: 'lidar', control: 'gcp' });
    const width = (q: SiteQuantities) => q.regions[0]?.bands.net?.plusMinus ?? NaN;
    expect(width(without)).toBeGreaterThan(width(withGcp));
    expect(width(withGcp)).toBeGreaterThan(width(lidar));
  });

  it('measures a frustum and a box pit in one cloud, with the rollup banded and regionCount bare', async () => {
    const r1 = 8;
    const r2 = 3;
    const h = 4;
    const frustumVolume = (Math.PI * h * (r1 * r1 + r1 * r2 + r2 * r2)) / 3;
    const pitVolume = 6 * 4 * 2;
    const site = onPlane(
      (x, y) => frustum(15, 15, r1, r2, h)(x, y) + pit(40, 12, 46, 16, 2)(x, y),
      10,
      -0.015,
      0.01,
    );
    const cloud = scatter(site, { size: 60, density: 30, sigma: 0.02, seed: 3 });
    const q = await measure(las(cloud, { minor: 4 }), [
      { id: 'frustum', polygon: square(4, 4, 22), densityTPerM3: 2 },
      { id: 'pit', polygon: square(36, 8, 14) },
    ]);
    const [stock, hole] = q.regions;
    if (!stock || !hole) throw new Error('missing regions');
    expectWithinBand(stock.fill, frustumVolume, stock.bands.fill);
    expectWithinBand(hole.cut, pitVolume, hole.bands.cut);
    expectWithinBand(hole.net, -pitVolume, hole.bands.net);
    expect(hole.tonnage).toBeNull();
    expect(hole.bands.tonnage).toBeUndefined();
    expectWithinBand(q.rollup.net, frustumVolume - pitVolume, q.rollup.bands.net);
    expect(q.rollup.tonnage).toBeCloseTo(stock.tonnage ?? NaN, 6);
    expect(Object.keys(q.rollup.bands).sort()).toEqual(['cut', 'fill', 'footprint', 'net', 'tonnage']);
    expect(q.regionCount).toBe(2);
    expect(q).not.toHaveProperty('bands');
    expect(q.capture).toMatchObject({ format: 'las', variant: '1.4', pointsRead: cloud.x.length });
  });

  it('converts US survey feet to metres (volume in m³, not ft³)', async () => {
    const ft = 1200 / 3937;
    const cloud = scatter(cone(20, 20, R, H), { size: 40, density: 20, sigma: 0.02, seed: 11 });
    const inFeet = {
      x: cloud.x.map((v) => v / ft),
      y: cloud.y.map((v) => v / ft),
      z: cloud.z.map((v) => v / ft),
    };
    const polygon = square(7, 7, 26).map(([x, y]) => [x / ft, y / ft] as XY);
    const q = await measureRegions(
      bufferSource(las(inFeet, { linearUnitEpsg: 9003 })),
      [{ id: 'pile', polygon }],
      { accuracy: LIDAR_GCP },
    );
    expectWithinBand(q.regions[0]?.net ?? NaN, coneVolume, q.regions[0]?.bands.net);
    expect(q.disclosures.join(' ')).not.toMatch(/no linear unit/);
  });

  it('measures against a fixed elevation with the datum error in the band', async () => {
    const cloud = scatter(onPlane(cone(20, 20, R, H), 50, 0, 0), {
      size: 40,
      density: 16,
      sigma: 0.02,
      seed: 5,
    });
    const q = await measure(plyBinary(cloud), [
      { id: 'pile', polygon: square(7, 7, 26), base: { kind: 'elevation', z: 50 } },
    ]);
    const pile = q.regions[0];
    expectWithinBand(pile?.net ?? NaN, coneVolume, pile?.bands.net);
    expect(pile?.base).toMatchObject({ kind: 'elevation', elevationM: 50 });
  });

  it('refuses regions the cloud does not cover and bad regions, naming them', async () => {
    const cloud = plyBinary(scatter(coneSite, { size: 40, density: 4, sigma: 0.02 }));
    await expect(measure(cloud, [{ id: 'far', polygon: square(500, 500, 10) }])).rejects.toMatchObject({
      code: 'region_not_covered',
    });
    await expect(measure(cloud, [{ id: 'half', polygon: square(30, 30, 30) }])).rejects.toMatchObject({
      code: 'region_not_covered',
      subject: 'half',
    });
    await expect(
      measure(cloud, [
        {
          id: 'line',
          polygon: [
            [0, 0],
            [1, 1],
            [2, 2],
          ],
        },
      ]),
    ).rejects.toMatchObject({ code: 'invalid_region' });
    await expect(
      measure(cloud, [{ id: 'x', polygon: square(7, 7, 26), material: 'unobtainium' }]),
    ).rejects.toMatchObject({ code: 'invalid_region' });
    await expect(measure(cloud, [])).rejects.toMatchObject({ code: 'invalid_region' });
    const bowtie: XY[] = [
      [7, 7],
      [33, 33],
      [33, 7],
      [7, 33],
    ];
    await expect(measure(cloud, [{ id: 'bowtie', polygon: bowtie }])).rejects.toThrow(/cross/);
  });

  it('reports voids and keeps the figure inside a band that grows with them', async () => {
    const full = scatter(coneSite, { size: 40, density: 16, sigma: 0.02, seed: 9 });
    const keep = Array.from(full.x.keys()).filter(
      (k) =>
        !(
          (full.x[k] as number) > 22 &&
          (full.x[k] as number) < 26 &&
          (full.y[k] as number) > 10 &&
          (full.y[k] as number) < 14
        ),
    );
    const holed = {
      x: Float64Array.from(keep.map((k) => full.x[k] as number)),
      y: Float64Array.from(keep.map((k) => full.y[k] as number)),
      z: Float64Array.from(keep.map((k) => full.z[k] as number)),
    };
    const regions = [{ id: 'pile', polygon: square(7, 7, 26) }];
    const a = await measure(plyBinary(full), regions);
    const b = await measure(plyBinary(holed), regions);
    expect(b.regions[0]?.coverage.voidFraction).toBeGreaterThan(0);
    expect(b.disclosures.some((d) => /holds no points/.test(d))).toBe(true);
    expect(b.regions[0]?.bands.net?.plusMinus).toBeGreaterThan(
      a.regions[0]?.bands.net?.plusMinus ?? Infinity,
    );
    expectWithinBand(b.regions[0]?.net ?? NaN, coneVolume, b.regions[0]?.bands.net);
  });
});

describe('measureSite (what a worker calls)', () => {
  it('measures the whole capture as one region when none is drawn', async () => {
    const coneSite = onPlane(cone(20, 20, 10, 5), 50, 0.02, -0.01);
    const cloud = scatter(coneSite, { size: 40, density: 12, sigma: 0.02, seed: 4 });
    for (const bytes of [plyBinary(cloud), las(cloud)]) {
      const q = await measureSite(bufferSource(bytes), undefined, { accuracy: LIDAR_GCP });
      expect(q.regions.map((r) => r.regionId)).toEqual(['site']);
      expectWithinBand(q.regions[0]?.net ?? NaN, (Math.PI * 100 * 5) / 3, q.regions[0]?.bands.net);
    }
  });

  it('reads the tiles of one capture as one cloud', async () => {
    const cloud = scatter(onPlane(cone(20, 20, 10, 5), 50, 0.02, -0.01), {
      size: 40,
      density: 12,
      sigma: 0.02,
      seed: 8,
    });
    const west = Array.from(cloud.x.keys()).filter((k) => (cloud.x[k] as number) < 20);
    const east = Array.from(cloud.x.keys()).filter((k) => (cloud.x[k] as number) >= 20);
    const tile = (keys: number[]) => ({
      x: Float64Array.from(keys.map((k) => cloud.x[k] as number)),
      y: Float64Array.from(keys.map((k) => cloud.y[k] as number)),
      z: Float64Array.from(keys.map((k) => cloud.z[k] as number)),
    });
    const regions = [{ id: 'pile', polygon: square(7, 7, 26) }];
    const whole = await measureRegions(bufferSource(plyBinary(cloud)), regions, { accuracy: LIDAR_GCP });
    const tiled = await measureRegions(
      [bufferSource(plyBinary(tile(west)), 'west.ply'), bufferSource(las(tile(east)), 'east.las')],
      regions,
      { accuracy: LIDAR_GCP },
    );
    expect(tiled.capture.pointsRead).toBe(cloud.x.length);
    expect(tiled.regions[0]?.net).toBeCloseTo(whole.regions[0]?.net ?? NaN, 0);
  });
});
