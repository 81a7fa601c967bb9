// COLMAP's text model (model_converter --output_type TXT): the triangulated points with their
// reprojection error and track, and the registered images with their poses. Only points that
// are well supported are kept: seen in at least 3 images (a sparse cloud's gross outliers are
// two-view points) and reprojecting within the model's own error: the larger of 1 px and twice
// the median error of those points. A fixed 1 px thinned a sound model of real photos (median
// 1.31 px) to a quarter of its points; a point off its rays by twice the typical error is an outlier
// whatever the camera.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Vec3 } from '@fieldops/measure-engine';

export const MIN_TRACK_IMAGES = 3;
/** The error threshold never goes below this, however sharp the model. */
export const MAX_REPROJECTION_PX = 1;
/** Points reprojecting worse than this many times the model's median error are dropped. */
export const MEDIAN_ERROR_FACTOR = 2;

export interface KeepFilter {
  minTrackImages: number;
  maxReprojectionErrorPx: number;
  rule: string;
}

export interface SparsePoints {
  /** x, y, z per kept point. */
  xyz: Float64Array;
  /** r, g, b per kept point. */
  rgb: Uint8Array;
  count: number;
  /** Points in the model before filtering. */
  total: number;
  /** Mean and median reprojection error of all the model's points, pixels. */
  meanErrorPx: number;
  medianErrorPx: number;
  filter: KeepFilter;
}

async function* dataLines(path: string): AsyncIterable<string[]> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.length === 0 || line.startsWith('#')) continue;
    yield line.trim().split(/\s+/);
  }
}

function distinctImages(fields: string[]): number {
  const seen = new Set<string>();
  for (let i = 8; i < fields.length; i += 2) seen.add(fields[i]!);
  return seen.size;
}

interface RawPoint {
  fields: string[];
  error: number;
  track: number;
}

const medianOf = (values: number[]): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

/** The keep-filter for a model whose well-tracked points have this median error. */
export function keepFilterFor(medianTrackedErrorPx: number): KeepFilter {
  const adaptive = MEDIAN_ERROR_FACTOR * medianTrackedErrorPx;
  return {
    minTrackImages: MIN_TRACK_IMAGES,
    maxReprojectionErrorPx: Math.max(MAX_REPROJECTION_PX, adaptive),
    rule: `seen in ${MIN_TRACK_IMAGES}+ photos, reprojection error under the larger of ${MAX_REPROJECTION_PX} px and ${MEDIAN_ERROR_FACTOR} × the median error of such points (${medianTrackedErrorPx.toFixed(2)} px)`,
  };
}

export async function readPoints(path: string): Promise<SparsePoints> {
  const raw: RawPoint[] = [];
  for await (const f of dataLines(path))
    raw.push({ fields: f, error: Number(f[7]), track: distinctImages(f) });
  const errors = raw.map((p) => p.error).filter(Number.isFinite);
  const filter = keepFilterFor(medianOf(raw.filter((p) => p.track >= MIN_TRACK_IMAGES).map((p) => p.error)));
  const kept = raw.filter((p) => p.error < filter.maxReprojectionErrorPx && p.track >= MIN_TRACK_IMAGES);
  const xyz = new Float64Array(kept.length * 3);
  const rgb = new Uint8Array(kept.length * 3);
  kept.forEach(({ fields: f }, i) => {
    for (let k = 0; k < 3; k++) {
      xyz[3 * i + k] = Number(f[1 + k]);
      rgb[3 * i + k] = Number(f[4 + k]);
    }
  });
  return {
    xyz,
    rgb,
    count: kept.length,
    total: raw.length,
    meanErrorPx: errors.length ? errors.reduce((a, b) => a + b, 0) / errors.length : 0,
    medianErrorPx: medianOf(errors),
    filter,
  };
}

/** Camera centres of the registered images by file name (C = -Rᵀt from images.txt). */
export async function readCameraCentres(path: string): Promise<Map<string, Vec3>> {
  const centres = new Map<string, Vec3>();
  let header = true;
  for await (const f of dataLines(path)) {
    // images.txt alternates a pose line and a line of 2D points (which may be empty and skipped).
    if (!header || f.length !== 10 || !/^\d+$/.test(f[0]!)) {
      header = true;
      continue;
    }
    const [qw, qx, qy, qz, tx, ty, tz] = f.slice(1, 8).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const r = [
      [1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw)],
      [2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw)],
      [2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy)],
    ] as const;
    const t = [tx, ty, tz];
    const c = [0, 1, 2].map((j) => -(r[0][j]! * t[0]! + r[1][j]! * t[1]! + r[2][j]! * t[2]!)) as Vec3;
    centres.set(f.slice(9).join(' '), c);
  }
  return centres;
}
