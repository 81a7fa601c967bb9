// Reproduces the cross-check in docs/measurements.md: writes the synthetic cone (r = 10 m,
// h = 5 m on a flat pad at z = 50, 25 points/m², 2 cm noise) as ascii PLY and prints the engine's
// figures for it. Compare with CloudCompare's 2.5D volume tool (Debian package `cloudcompare`):
//   QT_QPA_PLATFORM=offscreen CloudCompare -SILENT -AUTO_SAVE OFF -O cone.ply \
//     -VOLUME -CONST_HEIGHT 50 -GRID_STEP 0.8
// Run: node services/measure-engine/bench/cloudcompare-crosscheck.ts [output.ply]
import { writeFileSync } from 'node:fs';
import { bufferSource, measureRegions } from '../src/index.ts';
import type { BaseSpec } from '../src/index.ts';
import { cone, onPlane, plyAscii, scatter } from '../test/point-clouds.ts';

/** One JSON line per result on stdout (the bench's output, not a log). */
const print = (value: string): void => void process.stdout.write(`${value}\n`);

const out = process.argv[2] ?? 'cone.ply';
const cloud = scatter(onPlane(cone(20, 20, 10, 5), 50, 0, 0), {
  x0: 7,
  y0: 7,
  size: 26,
  density: 25,
  sigma: 0.02,
  seed: 42,
});
const bytes = plyAscii(cloud);
writeFileSync(out, bytes);
const polygon: [number, number][] = [
  [7, 7],
  [33, 7],
  [33, 33],
  [7, 33],
];
const cases: [string, BaseSpec | undefined, number | undefined][] = [
  ['elevation 50, cell 0.4', { kind: 'elevation', z: 50 }, 0.4],
  ['elevation 50, cell 0.8', { kind: 'elevation', z: 50 }, 0.8],
  ['fitted plane, cell from density', undefined, undefined],
];
for (const [label, base, cellSizeM] of cases) {
  const q = await measureRegions(
    bufferSource(bytes, out),
    [{ id: 'cone', polygon, ...(base ? { base } : {}) }],
    {
      accuracy: { sensor: 'lidar', control: 'gcp' },
      ...(cellSizeM ? { cellSizeM } : {}),
    },
  );
  const r = q.regions[0];
  print(
    JSON.stringify({
      label,
      cellSizeM: q.surface.cellSizeM,
      fill: r?.fill,
      cut: r?.cut,
      net: r?.net,
      band: r?.bands.net,
    }),
  );
}
print(JSON.stringify({ trueVolume: (Math.PI * 100 * 5) / 3, file: out, points: cloud.x.length }));
