// A small ray caster for the synthetic surveys: a pinhole camera (COLMAP's convention: x right,
// y down, z forward) looks at a height field (a ground plane and the objects on it: the stockpile
// of scene.ts, or the site of site.ts with its piles, trees and building); each pixel's ray is
// marched through the slab the objects occupy and refined by bisection, then shaded with a fixed
// sun (Lambert, so a point looks the same from every camera, as matte ground does).
import { albedo, pileHeight, type Stockpile } from './scene.ts';
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

/** Something standing on the ground: its height above the ground, within a plan circle and below a top. */
export interface SceneObject {
  centre: [number, number];
  /** Radius of the plan circle outside which the object is absent, metres. */
  reachM: number;
  /** Its greatest height above the ground, metres. */
  topM: number;
  heightAbove(x: number, y: number): number;
}

/** A height field to photograph: a ground plane and the objects standing on it. */
export interface Scene {
  ground: { z0: number; slopeEast: number; slopeNorth: number };
  objects: readonly SceneObject[];
}

/** A stockpile on flat ground at z = 0: the synthetic survey's scene. */
export const pileScene = (pile: Stockpile): Scene => ({
  ground: { z0: 0, slopeEast: 0, slopeNorth: 0 },
  objects: [
    {
      centre: pile.centre,
      reachM: pile.radiusM,
      topM: pile.heightM,
      heightAbove: (x, y) => pileHeight(pile, x, y),
    },
  ],
});

const groundOf = (scene: Scene, x: number, y: number): number =>
  scene.ground.z0 + scene.ground.slopeEast * x + scene.ground.slopeNorth * y;

/** The surface's height at (x, y): the ground plus the tallest object there. */
function surfaceOf(scene: Scene, x: number, y: number): number {
  let above = 0;
  for (const object of scene.objects) {
    const dx = x - object.centre[0];
    const dy = y - object.centre[1];
    if (dx * dx + dy * dy <= object.reachM * object.reachM) above = max(above, object.heightAbove(x, y));
  }
  return groundOf(scene, x, y) + above;
}

/**
 * Whether the ray's plan track between t0 and t1 comes within the object's circle: if no object's
 * does, the ray meets bare ground and needs no marching (most pixels of a large photo; 2400 px
 * photos render in seconds instead of half a minute).
 */
function passesNear(object: SceneObject, o: Vec3, d: Vec3, t0: number, t1: number): boolean {
  const [cx, cy] = object.centre;
  const px = o[0] - cx;
  const py = o[1] - cy;
  const dd = d[0] * d[0] + d[1] * d[1];
  const t = dd > 0 ? min(t1, max(t0, -(px * d[0] + py * d[1]) / dd)) : t0;
  const qx = px + t * d[0];
  const qy = py + t * d[1];
  return qx * qx + qy * qy <= object.reachM * object.reachM;
}

/**
 * The height of each object's highest point in the scene's frame: its top over the ground at its
 * centre, plus the most the sloping ground rises within its reach. Computed once per photo.
 */
const topsOf = (scene: Scene): number[] =>
  scene.objects.map(
    (object) =>
      groundOf(scene, object.centre[0], object.centre[1]) +
      object.topM +
      object.reachM * hypot(scene.ground.slopeEast, scene.ground.slopeNorth),
  );

/** Where the ray leaves the air: the surface point hit (x, y, z), or null for sky. */
function hit(scene: Scene, tops: readonly number[], o: Vec3, d: Vec3): Vec3 | null {
  const { slopeEast, slopeNorth } = scene.ground;
  const fall = slopeEast * d[0] + slopeNorth * d[1] - d[2];
  if (fall <= 1e-6) return null;
  const tGround = (o[2] - groundOf(scene, o[0], o[1])) / fall;
  const at = (t: number): Vec3 => [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]];
  // The ray can meet an object only below the highest top over the ground it crosses.
  let tTop = tGround;
  for (let n = 0; n < scene.objects.length; n++) {
    const object = scene.objects[n]!;
    const tEnter = d[2] < 0 ? max(0, (o[2] - tops[n]!) / -d[2]) : 0;
    if (tEnter < tGround && passesNear(object, o, d, tEnter, tGround)) tTop = min(tTop, tEnter);
  }
  if (tTop >= tGround) return at(tGround);
  const above = (t: number): boolean => {
    const p = at(t);
    return p[2] > surfaceOf(scene, p[0], p[1]);
  };
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

const lambert = (n: Vec3): number => 0.35 + 0.65 * max(0, n[0] * SUN[0] + n[1] * SUN[1] + n[2] * SUN[2]);

/** Lambert shade of the surface at p, from its slope there (bare ground: the plane's own normal). */
function shade(scene: Scene, p: Vec3, bareGround: number): number {
  const e = 0.05;
  const near = scene.objects.some((object) => {
    const dx = p[0] - object.centre[0];
    const dy = p[1] - object.centre[1];
    return dx * dx + dy * dy <= (object.reachM + e) ** 2;
  });
  if (!near) return bareGround;
  const dx = (surfaceOf(scene, p[0] + e, p[1]) - surfaceOf(scene, p[0] - e, p[1])) / (2 * e);
  const dy = (surfaceOf(scene, p[0], p[1] + e) - surfaceOf(scene, p[0], p[1] - e)) / (2 * e);
  return lambert(unit([-dx, -dy, 1]));
}

/** RGBA pixels of what `camera` sees of the scene (or of one stockpile on flat ground). */
export function render(subject: Scene | Stockpile, seed: number, camera: Camera): Uint8Array {
  const scene = 'ground' in subject ? subject : pileScene(subject);
  const bareGround = lambert(unit([-scene.ground.slopeEast, -scene.ground.slopeNorth, 1]));
  const tops = topsOf(scene);
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
      const p = hit(scene, tops, centre, d);
      const i = (v * width + u) * 4;
      if (!p) {
        pixels.set([180, 200, 230, 255], i);
        continue;
      }
      albedo(seed, p[0], p[1] + 0.6 * p[2], colour);
      const light = shade(scene, p, bareGround) * 255;
      pixels[i] = round(colour[0]! * light);
      pixels[i + 1] = round(colour[1]! * light);
      pixels[i + 2] = round(colour[2]! * light);
      pixels[i + 3] = 255;
    }
  }
  return pixels;
}
