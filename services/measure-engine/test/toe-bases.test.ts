// The bases read off the toe (quantities/toe-bases.ts), on a cone of known volume on a tilted pad:
// a triangulated toe follows the pad and lands within its band like a fitted plane; the lowest
// point on the toe lies below most of the pad, so it measures more, by the wedge it adds; a toe
// vertex on no captured ground is refused, naming the vertex. The ear clipping covers a concave toe
// exactly.
import { describe, expect, it } from '@jest/globals';
import { bufferSource } from '../src/io/byte-source.ts';
import { measureRegions } from '../src/index.ts';
import type { StatedRegionInput, XY } from '../src/index.ts';
import { triangulate } from '../src/quantities/toe-bases.ts';
import { cone, onPlane, plyBinary, scatter } from './point-clouds.ts';

const R = 10;
const H = 5;
const TRUTH = (Math.PI * R * R * H) / 3;
const octagon = (cx: number, cy: number, radius: number): XY[] =>
  Array.from({ length: 8 }, (_, k): XY => [
    cx + radius * Math.cos((k * Math.PI) / 4),
    cy + radius * Math.sin((k * Math.PI) / 4),
  ]);
const cloud = plyBinary(
  scatter(onPlane(cone(20, 20, R, H), 50, 0.02, -0.01), { size: 40, density: 16, sigma: 0.02, seed: 3 }),
);
const measure = (regions: StatedRegionInput[]) =>
  measureRegions(bufferSource(cloud, 'pad.ply'), regions, { accuracy: { sensor: 'lidar', control: 'gcp' } });

describe('toe bases', () => {
  it('measures the cone within its band on a triangulated toe, and more on the lowest point', async () => {
    const toe = octagon(20, 20, 13);
    const q = await measure([
      { id: 'tin', polygon: toe, base: { kind: 'triangulated' } },
      { id: 'plane', polygon: toe, base: { kind: 'fitted-plane' } },
      { id: 'low', polygon: toe, base: { kind: 'lowest-point' } },
    ]);
    const [tin, plane, low] = q.regions;
    expect(tin!.base).toMatchObject({ kind: 'triangulated', samples: 8 });
    expect(Math.abs(tin!.net - TRUTH)).toBeLessThanOrEqual(tin!.bands.net!.plusMinus);
    expect(Math.abs(plane!.net - TRUTH)).toBeLessThanOrEqual(plane!.bands.net!.plusMinus);
    // The pad falls 0.02 × 13 m to the toe's lowest point: that wedge is counted as pile.
    expect(low!.base).toMatchObject({ kind: 'lowest-point' });
    expect(low!.net - TRUTH).toBeGreaterThan(2 * low!.bands.net!.plusMinus);
  });

  it('refuses a triangulated toe whose vertex lies on no captured ground, naming the vertex', async () => {
    const toe = octagon(20, 20, 13);
    toe[2] = [20, 60];
    await expect(measure([{ id: 'off', polygon: toe, base: { kind: 'triangulated' } }])).rejects.toThrow(
      /toe vertex 3 lies where the capture holds no points/,
    );
  });

  it('triangulates a concave toe into triangles that cover exactly its area', () => {
    const l: XY[] = [
      [0, 0],
      [10, 0],
      [10, 4],
      [4, 4],
      [4, 10],
      [0, 10],
    ];
    const area = (a: XY, b: XY, c: XY) =>
      Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2;
    for (const polygon of [l, [...l].reverse()]) {
      const triangles = triangulate(polygon);
      expect(triangles).toHaveLength(polygon.length - 2);
      const sum = triangles.reduce((s, [a, b, c]) => s + area(polygon[a]!, polygon[b]!, polygon[c]!), 0);
      expect(sum).toBeCloseTo(64, 9);
    }
  });
});
