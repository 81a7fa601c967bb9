// A small ray caster for the synthetic survey: a pinhole camera (COLMAP's convention: x right,
// y down, z forward) looks at the height field of scene.ts; each pixel's ray is marched through
// the slab the pile occupies and refined by bisection, then shaded with a fixed sun (Lambert, so
// a point looks the same from every camera, as matte ground does).
import { albedo, pileHeight, type Stockpile } from './scene.js';
// Jest runs tests in a vm context, where every global lookup (Math) is slow: bind them once.
const { hypot, max, min, round, sqrt } = Math;

export type Vec3 = [number, number, number];

export interface Camera {
  centre: Vec3;
  /** Rows: the camera's x (right), y (down) and z (forward) axes in world coordinates. */
  rotation: [Vec3, Vec3, Vec3];
  focalPx: number;
  width: number;
  height: number;
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const unit = (a: Vec3): Vec3 => {
  const n = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  return [a[0] / n, a[1] / n, a[2] / n];
};

/** A camera at `centre` looking at `target`; `yawHint` orients a straight-down (nadir) camera. */
export function lookAt(
  centre: Vec3,
  target: Vec3,
  image: { focalPx: number; width: number; height: number },
  yawHint: Vec3 = [1, 0, 0],
): Camera {
  const z = unit(sub(target, centre));
  const sideways = cross(z, [0, 0, 1]);
  const x = hypot(...sideways) < 1e-6 ? unit(yawHint) : unit(sideways);
  const y = cross(z, x);
  return { centre, rotation: [x, y, z], ...image };
}

const SUN = unit([0.4, -0.3, 1]);

/**
 * Whether the ray's plan track between t0 and t1 stays outside the pile's circle: then it meets
 * flat ground and needs no marching (most pixels of a large photo; 2400 px photos render in
 * seconds instead of half a minute).
 */
function passesPile(pile: Stockpile, o: Vec3, d: Vec3, t0: number, t1: number): boolean {
  const [cx, cy] = pile.centre;
  const px = o[0] - cx;
  const py = o[1] - cy;
  const dd = d[0] * d[0] + d[1] * d[1];
  const t = dd > 0 ? min(t1, max(t0, -(px * d[0] + py * d[1]) / dd)) : t0;
  const qx = px + t * d[0];
  const qy = py + t * d[1];
  return qx * qx + qy * qy > pile.radiusM * pile.radiusM;
}

/** Where the ray leaves the air: the ground point hit (x, y, z), or null for sky. */
function hit(pile: Stockpile, o: Vec3, d: Vec3): Vec3 | null {
  if (d[2] >= -1e-6) return null;
  const tGround = o[2] / -d[2];
  if (passesPile(pile, o, d, max(0, (o[2] - pile.heightM) / -d[2]), tGround)) {
    return [o[0] + tGround * d[0], o[1] + tGround * d[1], 0];
  }
  const at = (t: number): Vec3 => [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]];
  const above = (t: number): boolean => {
    const p = at(t);
    return p[2] > pileHeight(pile, p[0], p[1]);
  };
  const tTop = max(0, (o[2] - pile.heightM) / -d[2]);
  const step = 0.1;
  let previous = tTop;
  for (let t = tTop + step; t < tGround + step; t += step) {
    const tt = min(t, tGround);
    if (!above(tt)) {
      let lo = previous;
      let hi = tt;
      for (let i = 0; i < 12; i++) {
        const mid = (lo + hi) / 2;
        if (above(mid)) lo = mid;
        else hi = mid;
      }
      return at(hi);
    }
    previous = tt;
  }
  return at(tGround);
}

/** Lambert shade of flat ground (normal straight up). */
const FLAT_SHADE = 0.35 + 0.65 * max(0, SUN[2]);

function shade(pile: Stockpile, p: Vec3): number {
  const e = 0.05;
  const [dx0, dy0] = [p[0] - pile.centre[0], p[1] - pile.centre[1]];
  if (dx0 * dx0 + dy0 * dy0 > (pile.radiusM + e) ** 2) return FLAT_SHADE;
  const dx = (pileHeight(pile, p[0] + e, p[1]) - pileHeight(pile, p[0] - e, p[1])) / (2 * e);
  const dy = (pileHeight(pile, p[0], p[1] + e) - pileHeight(pile, p[0], p[1] - e)) / (2 * e);
  const n = unit([-dx, -dy, 1]);
  return 0.35 + 0.65 * max(0, n[0] * SUN[0] + n[1] * SUN[1] + n[2] * SUN[2]);
}

/** RGBA pixels of what `camera` sees. */
export function render(pile: Stockpile, seed: number, camera: Camera): Uint8Array {
  const { width, height, focalPx, centre, rotation } = camera;
  const [rx, ry, rz] = rotation;
  const pixels = new Uint8Array(width * height * 4);
  const colour = new Float64Array(3);
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      const a = (u + 0.5 - width / 2) / focalPx;
      const b = (v + 0.5 - height / 2) / focalPx;
      const d = unit([
        rx[0] * a + ry[0] * b + rz[0],
        rx[1] * a + ry[1] * b + rz[1],
        rx[2] * a + ry[2] * b + rz[2],
      ]);
      const p = hit(pile, centre, d);
      const i = (v * width + u) * 4;
      if (!p) {
        pixels.set([180, 200, 230, 255], i);
        continue;
      }
      albedo(seed, p[0], p[1] + 0.6 * p[2], colour);
      const light = shade(pile, p) * 255;
      pixels[i] = round(colour[0]! * light);
      pixels[i + 1] = round(colour[1]! * light);
      pixels[i + 2] = round(colour[2]! * light);
      pixels[i + 3] = 255;
    }
  }
  return pixels;
}
