// The two bases a surveyor draws from the toe itself, beside the plane fitted to it and a fixed
// elevation (region-volume.ts): 'triangulated', a surface of triangles between the toe's own
// vertices at the captured heights there (what stockpile tools call a triangulated base; it follows
// a pad that is not flat), and 'lowest-point', the level of the lowest captured point along the toe
// (a conservative base for a pile in a hollow). Both are read off the same surface as the pile, so
// the capture's datum error cancels, as for a fitted plane.
import { EngineError } from '../errors.ts';
import { MAX_BOUNDARY_SAMPLES } from '../limits.ts';
import { boundarySamples } from '../geometry/polygon.ts';
import type { Polygon } from '../geometry/polygon.ts';
import { CellState } from '../surface/grid.ts';
import type { SurfaceGrid } from '../surface/grid.ts';
import type { XY } from '../types.ts';

export type ToeBaseKind = 'triangulated' | 'lowest-point';

export interface ToeBase {
  /** The base's height (m) at a cell centre inside the polygon. */
  at(x: number, y: number): number;
  /** One-sigma height error (m) of the base where the volume is weighted. */
  sigmaM: number;
  report: {
    kind: ToeBaseKind;
    /** Toe vertices (triangulated) or boundary samples (lowest-point) read off the surface. */
    samples: number;
    /** lowest-point: the level; triangulated: the lowest vertex height. */
    elevationM: number;
    boundaryCoverage: number;
  };
}

/** Cells searched around a toe vertex that falls on a void cell, before giving up. */
const VERTEX_SEARCH_CELLS = 3;

/** The captured height at (x, y), from the cell there or the nearest captured one close by. */
function heightNear(grid: SurfaceGrid, x: number, y: number): { z: number; variance: number } | null {
  const c = grid.cellSize;
  for (let r = 0; r <= VERTEX_SEARCH_CELLS; r++) {
    let best: { z: number; variance: number; d: number } | null = null;
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
        const i = grid.cellAt(x + dx * c, y + dy * c);
        if (i < 0 || grid.state[i] === CellState.Void) continue;
        const d = dx * dx + dy * dy;
        if (!best || d < best.d)
          best = { z: grid.value[i] as number, variance: grid.variance[i] as number, d };
      }
    }
    if (best) return { z: best.z, variance: best.variance };
  }
  return null;
}

const cross = (o: XY, a: XY, b: XY): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

function inTriangle(p: XY, a: XY, b: XY, c: XY): boolean {
  const d1 = cross(a, b, p);
  const d2 = cross(b, c, p);
  const d3 = cross(c, a, p);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
}

/** Ear clipping of a simple polygon: triangles as vertex index triples. */
export function triangulate(vertices: readonly XY[]): [number, number, number][] {
  const signedArea = vertices.reduce(
    (s, v, i) => s + cross([0, 0], v, vertices[(i + 1) % vertices.length]!),
    0,
  );
  const left = vertices.map((_, i) => i);
  if (signedArea < 0) left.reverse();
  const triangles: [number, number, number][] = [];
  let guard = left.length * left.length;
  while (left.length > 3 && guard-- > 0) {
    for (let k = 0; k < left.length; k++) {
      const [ia, ib, ic] = [
        left[(k + left.length - 1) % left.length]!,
        left[k]!,
        left[(k + 1) % left.length]!,
      ];
      const [a, b, c] = [vertices[ia]!, vertices[ib]!, vertices[ic]!];
      if (cross(a, b, c) <= 0) continue;
      if (left.some((j) => j !== ia && j !== ib && j !== ic && inTriangle(vertices[j]!, a, b, c))) continue;
      triangles.push([ia, ib, ic]);
      left.splice(k, 1);
      break;
    }
  }
  if (left.length === 3) triangles.push([left[0]!, left[1]!, left[2]!]);
  return triangles;
}

/** Barycentric height of (x, y) on the triangle, or null when outside it (with a small tolerance). */
function heightOn(p: XY, a: XY, b: XY, c: XY, z: readonly [number, number, number]): number | null {
  const det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
  if (det === 0) return null;
  const l1 = ((b[1] - c[1]) * (p[0] - c[0]) + (c[0] - b[0]) * (p[1] - c[1])) / det;
  const l2 = ((c[1] - a[1]) * (p[0] - c[0]) + (a[0] - c[0]) * (p[1] - c[1])) / det;
  const l3 = 1 - l1 - l2;
  const tolerance = -1e-9;
  if (l1 < tolerance || l2 < tolerance || l3 < tolerance) return null;
  return l1 * z[0] + l2 * z[1] + l3 * z[2];
}

function triangulatedBase(grid: SurfaceGrid, polygon: Polygon, regionId: string): ToeBase {
  const v = polygon.vertices;
  const heights = v.map(([x, y], k) => {
    const h = heightNear(grid, x, y);
    if (!h) {
      throw new EngineError(
        'region_not_covered',
        `Region ${regionId}: toe vertex ${k + 1} lies where the capture holds no points, so a triangulated base has no height there; move the vertex onto captured ground or choose base fitted-plane.`,
        regionId,
      );
    }
    return h;
  });
  const triangles = triangulate(v);
  const zs = heights.map((h) => h.z);
  const at = (x: number, y: number): number => {
    let nearest = { d: Infinity, z: zs[0] as number };
    for (const [a, b, c] of triangles) {
      const z = heightOn([x, y], v[a]!, v[b]!, v[c]!, [zs[a]!, zs[b]!, zs[c]!]);
      if (z !== null) return z;
      for (const k of [a, b, c]) {
        const d = (v[k]![0] - x) ** 2 + (v[k]![1] - y) ** 2;
        if (d < nearest.d) nearest = { d, z: zs[k]! };
      }
    }
    return nearest.z;
  };
  // Each vertex height is one cell's value: its noise moves the base near it, averaged over the
  // vertices a cell's height is interpolated from.
  const meanVariance = heights.reduce((s, h) => s + h.variance, 0) / heights.length;
  return {
    at,
    sigmaM: Math.sqrt(meanVariance / Math.min(3, heights.length)),
    report: {
      kind: 'triangulated',
      samples: heights.length,
      elevationM: Math.min(...zs),
      boundaryCoverage: 1,
    },
  };
}

function lowestPointBase(grid: SurfaceGrid, polygon: Polygon, regionId: string): ToeBase {
  const samples = boundarySamples(polygon, grid.cellSize, MAX_BOUNDARY_SAMPLES);
  let lowest: { z: number; variance: number } | null = null;
  let covered = 0;
  for (const [x, y] of samples) {
    const i = grid.cellAt(x, y);
    if (i < 0 || grid.state[i] === CellState.Void) continue;
    covered++;
    const z = grid.value[i] as number;
    if (!lowest || z < lowest.z) lowest = { z, variance: grid.variance[i] as number };
  }
  if (!lowest) {
    throw new EngineError(
      'region_not_covered',
      `Region ${regionId}: the capture holds no points along the toe, so it has no lowest point; draw the toe on captured ground.`,
      regionId,
    );
  }
  const level = lowest.z;
  return {
    at: () => level,
    sigmaM: Math.sqrt(lowest.variance),
    report: {
      kind: 'lowest-point',
      samples: covered,
      elevationM: level,
      boundaryCoverage: samples.length > 0 ? covered / samples.length : 0,
    },
  };
}

export function toeBase(grid: SurfaceGrid, polygon: Polygon, regionId: string, kind: ToeBaseKind): ToeBase {
  return kind === 'triangulated'
    ? triangulatedBase(grid, polygon, regionId)
    : lowestPointBase(grid, polygon, regionId);
}
