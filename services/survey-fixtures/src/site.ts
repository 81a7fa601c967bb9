// A generated survey site to develop regions against: gently sloping ground with two stockpiles of
// known volume (the smooth piles of scene.ts, πR²H/3 each), trees and a building around them, as
// the point cloud a reconstruction of it leaves: metres east, north and up of a stated WGS 84
// origin (the PLY header says so, as the platform's photogrammetry does), with the ground about
// 60 m below the origin as under a drone's mean camera position. Toes are drawn in WGS 84 around
// each pile, as a client draws them on a map. Stated regions must measure each pile within its
// band; the automatic whole-capture region measures trees and roof as well. The same site is also
// rendered as a drone's photos (generateSiteSurvey), so a real reconstruction can be measured
// against the same truth.
import { enuFrame, type Geodetic } from '@fieldops/measure-engine';
import type { Scene, SceneObject } from './render.ts';
import { pileHeight, pileVolume, type Stockpile } from './scene.ts';
import { photograph, type PositionGrade, type SurveyPhoto } from './survey.ts';

// Jest runs tests in a vm context, where every global lookup (Math) is slow: bind them once.
const { cos, floor, hypot, imul, max, PI, sin, sqrt, log } = Math;

export const SITE_ORIGIN: Geodetic = { lat: 51.4412, lon: -0.9418, alt: 72 };

/** The ground's height (m, in the cloud's up axis) at the origin, and its slope east and north. */
export const SITE_GROUND = { z0: -60, slopeEast: 0.01, slopeNorth: -0.006 } as const;

export const SITE_PILES: Readonly<Record<'north' | 'south', Stockpile>> = {
  north: { radiusM: 10, heightM: 4, centre: [-14, 12] },
  south: { radiusM: 8, heightM: 3, centre: [16, -10] },
};

export const SITE_TRUE_VOLUMES_M3 = {
  north: pileVolume(SITE_PILES.north),
  south: pileVolume(SITE_PILES.south),
};

export interface Tree {
  centre: [number, number];
  radiusM: number;
  heightM: number;
}

/** Trees near the piles, outside their toes: in the automatic region, never in a stated one. */
export const SITE_TREES: readonly Tree[] = [
  { centre: [2, 20], radiusM: 3, heightM: 9 },
  { centre: [-30, -4], radiusM: 2.5, heightM: 7 },
  { centre: [30, 8], radiusM: 3, heightM: 8 },
  { centre: [-4, -24], radiusM: 2, heightM: 6 },
];

/** A flat-roofed building, metres east and north of its corners, and its height. */
export const SITE_BUILDING = { minX: 4, maxX: 16, minY: 14, maxY: 22, heightM: 6 } as const;

/** The extent the cloud covers, metres east and north of the origin. */
export const SITE_EXTENT = { minX: -40, maxX: 40, minY: -35, maxY: 35 } as const;

export const groundAt = (x: number, y: number): number =>
  SITE_GROUND.z0 + SITE_GROUND.slopeEast * x + SITE_GROUND.slopeNorth * y;

/** A tree's crown: a paraboloid over its radius. */
const treeHeight = (tree: Tree, x: number, y: number): number => {
  const r = hypot(x - tree.centre[0], y - tree.centre[1]) / tree.radiusM;
  return r >= 1 ? 0 : tree.heightM * (1 - r * r);
};

const buildingHeight = (x: number, y: number): number => {
  const b = SITE_BUILDING;
  return x >= b.minX && x <= b.maxX && y >= b.minY && y <= b.maxY ? b.heightM : 0;
};

/** The captured surface: ground, piles, tree crowns and the roof, whichever is highest. */
export function siteHeight(x: number, y: number): number {
  let above = max(pileHeight(SITE_PILES.north, x, y), pileHeight(SITE_PILES.south, x, y));
  for (const tree of SITE_TREES) above = max(above, treeHeight(tree, x, y));
  return groundAt(x, y) + max(above, buildingHeight(x, y));
}

function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x9e3779b9;
    state = (state ^ (state >>> 13)) >>> 0;
    return state / 4294967296;
  };
}

const gaussian = (random: () => number): number => sqrt(-2 * log(1 - random())) * cos(2 * PI * random());

export interface SiteCloudOptions {
  /** Spacing of the points, metres (jittered). Default 0.35. */
  spacingM?: number;
  /** Height noise of one point, metres. Default 0.03. */
  sigmaM?: number;
  seed?: number;
}

/** The site's captured surface as points: metres east, north and up of SITE_ORIGIN. */
export function siteCloudPoints(options: SiteCloudOptions = {}): {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
} {
  const spacing = options.spacingM ?? 0.35;
  const sigma = options.sigmaM ?? 0.03;
  const random = seeded(options.seed ?? 7);
  const e = SITE_EXTENT;
  const columns = floor((e.maxX - e.minX) / spacing);
  const rows = floor((e.maxY - e.minY) / spacing);
  const [x, y, z] = [0, 0, 0].map(() => new Float64Array(columns * rows)) as [
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  let k = 0;
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < columns; col++) {
      x[k] = e.minX + (col + random()) * spacing;
      y[k] = e.minY + (row + random()) * spacing;
      z[k] = siteHeight(x[k]!, y[k]!) + sigma * gaussian(random);
      k++;
    }
  }
  return { x, y, z };
}

/**
 * The site as a binary PLY of float x, y, z in metres east, north, up of SITE_ORIGIN, whose header
 * states that origin in the form the platform's photogrammetry writes.
 */
export function siteCloudPly(options: SiteCloudOptions = {}): Buffer {
  const { x, y, z } = siteCloudPoints(options);
  const body = Buffer.alloc(x.length * 12);
  for (let k = 0; k < x.length; k++) {
    body.writeFloatLE(x[k]!, 12 * k);
    body.writeFloatLE(y[k]!, 12 * k + 4);
    body.writeFloatLE(z[k]!, 12 * k + 8);
  }
  const { lat, lon, alt } = SITE_ORIGIN;
  const header = [
    'ply',
    'format binary_little_endian 1.0',
    `comment fieldops survey fixture: metres east, north, up of lat ${lat.toFixed(7)} lon ${lon.toFixed(7)} alt ${alt.toFixed(2)}`,
    `element vertex ${x.length}`,
    'property float x',
    'property float y',
    'property float z',
    'end_header',
    '',
  ].join('\n');
  return Buffer.concat([Buffer.from(header, 'latin1'), body]);
}

/**
 * The same site placed at `origin` (its east-north-up metres taken about that position) and written
 * in another coordinate system by `project`, which takes a WGS 84 latitude, longitude and
 * ellipsoidal height and answers x, y, z in the target CRS and its units: the cloud a surveyor's
 * software writes in a State Plane zone in feet, in ETRS89 / UTM, and so on.
 */
export function siteCloudProjected(
  project: (lat: number, lon: number, alt: number) => readonly [number, number, number],
  origin: Geodetic = SITE_ORIGIN,
  options: SiteCloudOptions = {},
): { x: Float64Array; y: Float64Array; z: Float64Array } {
  const frame = enuFrame(origin);
  const { x, y, z } = siteCloudPoints(options);
  const out = { x: new Float64Array(x.length), y: new Float64Array(x.length), z: new Float64Array(x.length) };
  for (let k = 0; k < x.length; k++) {
    const g = frame.toGeodetic([x[k]!, y[k]!, z[k]!]);
    [out.x[k], out.y[k], out.z[k]] = project(g.lat, g.lon, g.alt);
  }
  return out;
}

/**
 * A toe drawn around a pile: `vertices` positions on a circle `marginM` outside its foot, in WGS 84
 * (of the site at `origin`, SITE_ORIGIN unless it was placed elsewhere).
 */
export function toeAround(
  pile: Stockpile,
  marginM = 3,
  vertices = 12,
  origin: Geodetic = SITE_ORIGIN,
): { lat: number; lng: number }[] {
  const frame = enuFrame(origin);
  const radius = pile.radiusM + marginM;
  return Array.from({ length: vertices }, (_, k) => {
    const angle = (2 * PI * k) / vertices;
    const x = pile.centre[0] + radius * cos(angle);
    const y = pile.centre[1] + radius * sin(angle);
    const g = frame.toGeodetic([x, y, groundAt(x, y)]);
    return { lat: g.lat, lng: g.lon };
  });
}

/** The ground's height under a pile's centre, in the altitude frame of SITE_ORIGIN (for an elevation base). */
export const groundElevationUnder = (pile: Stockpile): number =>
  SITE_ORIGIN.alt + groundAt(pile.centre[0], pile.centre[1]);

/** The site as a scene to photograph: its sloping ground, the two piles, the trees and the building. */
export function siteScene(): Scene {
  const b = SITE_BUILDING;
  const piles = Object.values(SITE_PILES).map((pile): SceneObject => ({
    centre: pile.centre,
    reachM: pile.radiusM,
    topM: pile.heightM,
    heightAbove: (x, y) => pileHeight(pile, x, y),
  }));
  const trees = SITE_TREES.map((tree): SceneObject => ({
    centre: tree.centre,
    reachM: tree.radiusM,
    topM: tree.heightM,
    heightAbove: (x, y) => treeHeight(tree, x, y),
  }));
  const building: SceneObject = {
    centre: [(b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2],
    reachM: hypot(b.maxX - b.minX, b.maxY - b.minY) / 2,
    topM: b.heightM,
    heightAbove: buildingHeight,
  };
  return { ground: SITE_GROUND, objects: [...piles, ...trees, building] };
}

export interface SiteSurveyOptions {
  seed?: number;
  grade?: PositionGrade;
  /** Photo size (default 640 × 480). */
  width?: number;
  height?: number;
  /** Rows and columns of the nadir grid (default 4 × 5, 12 m apart: the whole site at ≥ 65 % overlap). */
  grid?: [number, number];
  spacingM?: number;
  /** Height above the ground at the site's centre, metres (default 40). */
  altitudeM?: number;
  cameras?: 1 | 2;
}

/**
 * The site photographed by a drone: a nadir grid over the whole site plus four obliques, with EXIF
 * GPS of the given grade in WGS 84 (SITE_ORIGIN's frame), focal length, camera model and the
 * capture date of SURVEY_TAKEN_AT. Photos of the captured surface, so a reconstruction of them
 * measures the piles' truth only within stated toes (the trees and the roof are in the photos too).
 */
export function generateSiteSurvey(options: SiteSurveyOptions = {}): SurveyPhoto[] {
  const plan = {
    grid: options.grid ?? ([4, 5] as [number, number]),
    spacingM: options.spacingM ?? 12,
    width: options.width ?? 640,
    height: options.height ?? 480,
    cameras: options.cameras ?? 1,
    altitudeM: options.altitudeM ?? 40,
    groundZ: SITE_GROUND.z0,
  };
  return photograph(siteScene(), plan, {
    seed: options.seed ?? 3,
    grade: options.grade ?? 'precise',
    origin: SITE_ORIGIN,
    tag: 'site',
  });
}
