// Plane polygons of the regions, in metres: validation, area, containment and the boundary walk
// the base fit samples along.
import { EngineError } from '../errors.ts';
import { MAX_REGION_VERTICES } from '../limits.ts';
import type { XY } from '../types.ts';
import { findCrossing, PAIR_CHECKS_PER_EDGE } from './crossing.ts';

export interface Polygon {
  /** Vertices without the closing repeat. */
  readonly vertices: readonly XY[];
  readonly area: number;
  readonly perimeter: number;
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

/** Shoelace area, positive for either orientation. */
function shoelace(vertices: readonly XY[]): number {
  let twice = 0;
  for (let i = 0; i < vertices.length; i++) {
    const [x1, y1] = vertices[i] as XY;
    const [x2, y2] = vertices[(i + 1) % vertices.length] as XY;
    twice += x1 * y2 - x2 * y1;
  }
  return Math.abs(twice) / 2;
}

/**
 * Validates a region's polygon (scaled to metres by `metres`) and returns it with its measures.
 * A repeated closing vertex is dropped; fewer than three distinct vertices, a non-finite
 * coordinate or a zero area is refused with a sentence naming the region.
 */
export function toPolygon(points: readonly XY[], regionId: string, metres = 1): Polygon {
  const fail = (what: string): never => {
    throw new EngineError('invalid_region', `Region ${regionId}: ${what}`, regionId);
  };
  if (points.length > MAX_REGION_VERTICES + 1) {
    fail(`has ${points.length} vertices; at most ${MAX_REGION_VERTICES} are accepted.`);
  }
  const vertices = points.map(([x, y]) => [x * metres, y * metres] as XY);
  if (vertices.some(([x, y]) => !Number.isFinite(x) || !Number.isFinite(y))) {
    fail('a vertex has a coordinate that is not a finite number.');
  }
  const first = vertices[0];
  const last = vertices.at(-1);
  if (vertices.length > 1 && first && last && first[0] === last[0] && first[1] === last[1]) vertices.pop();
  if (vertices.length < 3) fail('a polygon needs at least three distinct vertices.');
  const crossing = findCrossing(vertices);
  if (crossing.kind === 'crossing') {
    const [i, j] = crossing.edges;
    fail(`edges ${i + 1} and ${j + 1} cross; draw the boundary without crossing itself.`);
  }
  if (crossing.kind === 'too-intricate') {
    fail(
      `the boundary folds back on itself too often to be checked for crossings within the budget of ${PAIR_CHECKS_PER_EDGE} edge pairs per vertex; draw it with fewer zigzags or fewer vertices.`,
    );
  }
  const area = shoelace(vertices);
  if (!(area > 0)) fail('the polygon encloses no area (its vertices are collinear).');
  let perimeter = 0;
  for (let i = 0; i < vertices.length; i++) {
    const [x1, y1] = vertices[i] as XY;
    const [x2, y2] = vertices[(i + 1) % vertices.length] as XY;
    perimeter += Math.hypot(x2 - x1, y2 - y1);
  }
  const xs = vertices.map((v) => v[0]);
  const ys = vertices.map((v) => v[1]);
  return {
    vertices,
    area,
    perimeter,
    minX: Math.min(...xs),
    minY: Math.min(...ys),
    maxX: Math.max(...xs),
    maxY: Math.max(...ys),
  };
}

/** Even-odd ray casting: true when (x, y) lies inside the polygon. */
export function contains(polygon: Polygon, x: number, y: number): boolean {
  const v = polygon.vertices;
  let inside = false;
  for (let i = 0, j = v.length - 1; i < v.length; j = i++) {
    const [xi, yi] = v[i] as XY;
    const [xj, yj] = v[j] as XY;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Points along the boundary every `spacing` metres (at least one per vertex). */
export function boundarySamples(polygon: Polygon, spacing: number, maxSamples: number): XY[] {
  const step = Math.max(spacing, polygon.perimeter / maxSamples);
  const samples: XY[] = [];
  const v = polygon.vertices;
  for (let i = 0; i < v.length; i++) {
    const [x1, y1] = v[i] as XY;
    const [x2, y2] = v[(i + 1) % v.length] as XY;
    const length = Math.hypot(x2 - x1, y2 - y1);
    const count = Math.max(1, Math.floor(length / step));
    for (let k = 0; k < count; k++) {
      const t = k / count;
      samples.push([x1 + (x2 - x1) * t, y1 + (y2 - y1) * t]);
    }
  }
  return samples;
}
