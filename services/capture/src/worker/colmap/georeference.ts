// Georeferencing inputs and checks: the photos' GPS positions in a local east-north-up frame (the
// reference file model_aligner reads), and after alignment the residual between where COLMAP put
// each camera and where its GPS said it was — the figure that says how well the model's scale,
// orientation and position are known, and so how wide the bands must be.
import { frameAround, type Geodetic, type Vec3 } from './geodesy.js';
import type { Photo } from './photos.js';

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
