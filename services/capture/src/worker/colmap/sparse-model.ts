// COLMAP's text model (model_converter --output_type TXT): the triangulated points with their
// reprojection error and track, and the registered images with their poses. Only points that
// are well supported are kept: seen in at least 3 images and reprojecting within 1 px (a sparse
// cloud's gross outliers are two-view points and points far off their rays).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Vec3 } from './geodesy.js';

export const MIN_TRACK_IMAGES = 3;
export const MAX_REPROJECTION_PX = 1;

export interface SparsePoints {
  /** x, y, z per kept point. */
  xyz: Float64Array;
  /** r, g, b per kept point. */
  rgb: Uint8Array;
  count: number;
  /** Points in the model before filtering. */
  total: number;
  /** Mean reprojection error of the kept points, pixels. */
  meanErrorPx: number;
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

export async function readPoints(path: string): Promise<SparsePoints> {
  const xyz: number[] = [];
  const rgb: number[] = [];
  let total = 0;
  let errorSum = 0;
  for await (const f of dataLines(path)) {
    total++;
    const error = Number(f[7]);
    if (!(error < MAX_REPROJECTION_PX) || distinctImages(f) < MIN_TRACK_IMAGES) continue;
    xyz.push(Number(f[1]), Number(f[2]), Number(f[3]));
    rgb.push(Number(f[4]), Number(f[5]), Number(f[6]));
    errorSum += error;
  }
  const count = xyz.length / 3;
  return {
    xyz: Float64Array.from(xyz),
    rgb: Uint8Array.from(rgb),
    count,
    total,
    meanErrorPx: count ? errorSum / count : 0,
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
