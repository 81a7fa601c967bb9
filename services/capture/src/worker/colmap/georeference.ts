// Georeferencing inputs and checks: the photos' GPS positions in a local east-north-up frame (the
// reference file model_aligner reads), and after alignment the residual between where COLMAP put
// each camera and where its GPS said it was — the figure that says how well the model's scale,
// orientation and position are known, and so how wide the bands must be.
import { frameAround, type Geodetic, type Vec3 } from '@fieldops/measure-engine';
import type { Photo } from './photos.ts';

/** Fewer positions cannot fix a similarity transform (7 unknowns, 3 per position). */
export const MIN_POSITIONED_PHOTOS = 3;
/** Positions closer together than this cannot fix the model's scale. */
export const MIN_POSITION_SPREAD_M = 2;

export interface Reference {
  /** The frame's origin: the mean of the positions. */
  origin: Geodetic;
  /** `<file> <east> <north> <up>` per positioned photo. */
  text: string;
  enu: Map<string, Vec3>;
  /** Largest distance between two positions, metres. */
  spreadM: number;
}

export function referenceOf(photos: readonly Photo[]): Reference {
  const positioned = photos.filter((p) => p.position);
  const frame = frameAround(positioned.map((p) => p.position!));
  const enu = new Map(positioned.map((p) => [p.file, frame.toEnu(p.position!)] as const));
  let spreadM = 0;
  const points = [...enu.values()];
  for (const a of points)
    for (const b of points) spreadM = Math.max(spreadM, Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
  const text = [...enu]
    .map(([file, [e, n, u]]) => `${file} ${e.toFixed(4)} ${n.toFixed(4)} ${u.toFixed(4)}`)
    .join('\n');
  return { origin: frame.origin, text: `${text}\n`, enu, spreadM };
}

export interface AlignmentFit {
  /** Root mean square distance between aligned camera centres and their positions, metres. */
  rmseM: number;
  /** Photos that were both registered and positioned. */
  compared: number;
  /** Root mean square distance of the positions from their centroid (the lever arm of scale). */
  leverM: number;
}

export function alignmentFit(centres: ReadonlyMap<string, Vec3>, reference: Reference): AlignmentFit {
  const pairs = [...centres].flatMap(([file, c]) => {
    const r = reference.enu.get(file);
    return r ? [[c, r] as const] : [];
  });
  const sq = pairs.reduce(
    (sum, [c, r]) => sum + (c[0] - r[0]) ** 2 + (c[1] - r[1]) ** 2 + (c[2] - r[2]) ** 2,
    0,
  );
  const mean = [0, 1, 2].map((k) => pairs.reduce((s, [, r]) => s + r[k]!, 0) / Math.max(1, pairs.length));
  const lever = pairs.reduce(
    (s, [, r]) => s + (r[0] - mean[0]!) ** 2 + (r[1] - mean[1]!) ** 2 + (r[2] - mean[2]!) ** 2,
    0,
  );
  return {
    rmseM: pairs.length ? Math.sqrt(sq / pairs.length) : Infinity,
    compared: pairs.length,
    leverM: pairs.length ? Math.sqrt(lever / pairs.length) : 0,
  };
}

/** Solves the 4 × 4 system `a x = b` (Gaussian elimination with partial pivoting); null if singular. */
function solve4(a: number[][], b: number[]): number[] | null {
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < 4; col++) {
    let pivot = col;
    for (let r = col + 1; r < 4; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-12) return null;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = 0; r < 4; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / m[col]![col]!;
      for (let k = col; k < 5; k++) m[r]![k]! -= f * m[col]![k]!;
    }
  }
  return m.map((row, i) => row[4]! / row[i]!);
}

/** Fewer pairs cannot tell a dome from the positions' noise. */
const MIN_DOME_PAIRS = 8;

/**
 * A dome measured on the alignment: the vertical residuals (aligned centre − position) fitted as
 * up = a + b·x + c·y + k·r² (r from the positions' centroid). Structure from motion on nadir photos
 * bends cameras and ground alike, so k is the model's curvature. Returned only when k is more than
 * twice its standard error (else consumer GPS noise alone could make it), in 1/m.
 */
export function domeCurvature(centres: ReadonlyMap<string, Vec3>, reference: Reference): number | undefined {
  const pairs = [...centres].flatMap(([file, c]) => {
    const r = reference.enu.get(file);
    return r ? [[c, r] as const] : [];
  });
  if (pairs.length < MIN_DOME_PAIRS) return undefined;
  const mx = pairs.reduce((s, [, r]) => s + r[0], 0) / pairs.length;
  const my = pairs.reduce((s, [, r]) => s + r[1], 0) / pairs.length;
  const rows = pairs.map(([c, r]) => {
    const x = r[0] - mx;
    const y = r[1] - my;
    return { v: [1, x, y, x * x + y * y], u: c[2] - r[2] };
  });
  const ata = [0, 1, 2, 3].map((i) =>
    [0, 1, 2, 3].map((j) => rows.reduce((s, row) => s + row.v[i]! * row.v[j]!, 0)),
  );
  const atu = [0, 1, 2, 3].map((i) => rows.reduce((s, row) => s + row.v[i]! * row.u, 0));
  const fit = solve4(ata, atu);
  const unitK = solve4(ata, [0, 0, 0, 1]);
  if (!fit || !unitK) return undefined;
  const sse = rows.reduce((s, row) => s + (row.u - row.v.reduce((t, v, i) => t + v * fit[i]!, 0)) ** 2, 0);
  const variance = sse / Math.max(1, rows.length - 4);
  const standardError = Math.sqrt(Math.max(0, variance * unitK[3]!));
  return Math.abs(fit[3]!) > 2 * standardError ? fit[3]! : undefined;
}
