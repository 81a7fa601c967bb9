// Why: the extent of a cloud is grown point by point here (the whole-site region) and by every
// reconstruction engine that reads or makes a cloud (capture's builtin and COLMAP engines); the
// empty box and the growing step are written once.
import type { Bounds3 } from './types.ts';

/** Bounds being grown: every minimum starts at +∞ and every maximum at −∞. */
export type GrowingBounds = { -readonly [K in keyof Bounds3]: Bounds3[K] };

export const emptyBounds = (): GrowingBounds => ({
  minX: Infinity,
  minY: Infinity,
  minZ: Infinity,
  maxX: -Infinity,
  maxY: -Infinity,
  maxZ: -Infinity,
});

/** Grows `b` to hold the point (x, y, z). */
export function extendBounds(b: GrowingBounds, x: number, y: number, z: number): void {
  if (x < b.minX) b.minX = x;
  if (y < b.minY) b.minY = y;
  if (z < b.minZ) b.minZ = z;
  if (x > b.maxX) b.maxX = x;
  if (y > b.maxY) b.maxY = y;
  if (z > b.maxZ) b.maxZ = z;
}
