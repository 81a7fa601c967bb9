// The synthetic drone survey of the end-to-end tests (no downloads): a stockpile of known volume
// photographed from 9 nadir and 4 oblique poses with overlapping footprints, written as JPEG with
// EXIF GPS. Variants: `precise` positions (RTK-grade, ~2 cm), `noisy` (consumer GPS, metres),
// `none` (no GPS at all); and sets that cannot be reconstructed (one photo, photos far apart).
// Realistic options: two cameras of different focal length (as dual-camera drones fly), photos at
// 2400 px and larger, and an EXIF capture date (DateTimeOriginal with OffsetTimeOriginal).
// Deterministic for a seed; `node scripts/survey/generate.ts <dir>` writes a set to disk. A
// workspace package so the tests and the platform's demo seed share one generator.
import jpeg from 'jpeg-js';
import { enuFrame, type Geodetic, type Vec3 } from '@fieldops/measure-engine';
import { withExif } from './exif.ts';
import { lookAt, render, type Camera, type Scene } from './render.ts';
import { pileVolume, type Stockpile } from './scene.ts';

export const SURVEY_PILE: Stockpile = { radiusM: 12, heightM: 4.5, centre: [0, 0] };
/** The pile's volume in closed form: the truth a measured survey is checked against. */
export const SURVEY_TRUE_VOLUME_M3 = pileVolume(SURVEY_PILE);
/** The site's geodetic origin (the generator's ENU frame). */
export const SURVEY_ORIGIN: Geodetic = { lat: 52.0907, lon: 5.1214, alt: 12 };

export type PositionGrade = 'precise' | 'noisy' | 'none';

/** One-sigma error of each grade's positions, metres (horizontal, vertical). */
export const POSITION_SIGMA: Record<Exclude<PositionGrade, 'none'>, [number, number]> = {
  precise: [0.02, 0.03],
  noisy: [2, 3],
};

export interface SurveyPhoto {
  name: string;
  bytes: Buffer;
}

export interface SurveyOptions {
  seed?: number;
  grade?: PositionGrade;
  /** Rows and columns of the nadir grid (default 3 × 3); 4 obliques are added. */
  grid?: [number, number];
  /** Distance between neighbouring nadir photos, metres (default: 3 × 3 spans 24 m). */
  spacingM?: number;
  width?: number;
  height?: number;
  /** 2: every other photo is taken by a second camera with a wider lens (default 1). */
  cameras?: 1 | 2;
}

/** When the first photo was taken (local time and offset, as a drone writes it); then every 3 s. */
export const SURVEY_TAKEN_AT = { local: '2015-10-16T10:23:45', offset: '+02:00' } as const;
const PHOTO_INTERVAL_S = 3;

/** Focal length (in image widths) and EXIF model of each camera of a survey. */
export const SURVEY_CAMERAS = [
  { focalWidths: 0.875, model: 'synthetic survey camera' },
  { focalWidths: 0.7, model: 'synthetic survey camera B (wide)' },
] as const;

/** The local time `seconds` after SURVEY_TAKEN_AT, in the same form. */
function takenAtOf(index: number) {
  const [date, time] = SURVEY_TAKEN_AT.local.split('T') as [string, string];
  const [h, m, sec] = time.split(':').map(Number) as [number, number, number];
  const total = h * 3600 + m * 60 + sec + index * PHOTO_INTERVAL_S;
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = `${date}T${pad(Math.floor(total / 3600) % 24)}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`;
  return { local, offset: SURVEY_TAKEN_AT.offset };
}

/** A deterministic generator (mulberry32) with normal draws (Box–Muller). */
export function randomSource(seed: number) {
  let state = seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

const ALTITUDE_M = 35;

export interface FlightPlan {
  grid: [number, number];
  spacingM: number;
  width: number;
  height: number;
  cameras?: 1 | 2;
  /** Height of the nadir photos above `groundZ`, metres (default 35). */
  altitudeM?: number;
  /** The ground's height in the scene's frame under the grid's centre (default 0). */
  groundZ?: number;
  /** Four obliques looking at the centre from 30 m out (default true). */
  obliques?: boolean;
}

/** The poses: a nadir grid centred on the scene's origin, then four obliques looking at its centre from 30 m out. */
export function surveyCameras(plan: FlightPlan) {
  const images = SURVEY_CAMERAS.slice(0, plan.cameras ?? 1).map((c) => ({
    width: plan.width,
    height: plan.height,
    focalPx: plan.width * c.focalWidths,
  }));
  const imageOf = (index: number) => images[index % images.length]!;
  const ground = plan.groundZ ?? 0;
  const z = ground + (plan.altitudeM ?? ALTITUDE_M);
  const [rows, cols] = plan.grid;
  const cameras: Camera[] = [];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const x = (col - (cols - 1) / 2) * plan.spacingM;
      const y = ((rows - 1) / 2 - row) * plan.spacingM;
      cameras.push(lookAt([x, y, z], [x, y, ground], imageOf(cameras.length)));
    }
  }
  if (plan.obliques === false) return cameras;
  for (const [dx, dy] of [
    [1, 0],
    [0, 1],
    [-1, 0],
    [0, -1],
  ] as const) {
    cameras.push(lookAt([30 * dx, 30 * dy, ground + 28], [0, 0, ground + 1], imageOf(cameras.length)));
  }
  return cameras;
}

function encode(camera: Camera, seed: number, subject: Scene | Stockpile): Uint8Array {
  const data = render(subject, seed, camera);
  return jpeg.encode({ data, width: camera.width, height: camera.height }, 92).data;
}

type Frame = ReturnType<typeof enuFrame>;

function positionOf(
  camera: Camera,
  grade: PositionGrade,
  random: ReturnType<typeof randomSource>,
  frame: Frame,
) {
  if (grade === 'none') return undefined;
  const [h, v] = POSITION_SIGMA[grade];
  const c = camera.centre;
  const noisy: Vec3 = [c[0] + h * random.normal(), c[1] + h * random.normal(), c[2] + v * random.normal()];
  return frame.toGeodetic(noisy);
}

const rendered = new Map<string, { camera: Camera; jpeg: Uint8Array }[]>();

/** Renders once per process, subject and shape; each grade only rewrites the EXIF. */
function renderedSet(seed: number, cameras: Camera[], tag: string, subject: Scene | Stockpile) {
  const key = `${seed}:${tag}`;
  let set = rendered.get(key);
  if (!set) {
    set = cameras.map((camera) => ({ camera, jpeg: encode(camera, seed, subject) }));
    rendered.set(key, set);
  }
  return set;
}

function photosOf(
  set: { camera: Camera; jpeg: Uint8Array }[],
  grade: PositionGrade,
  seed: number,
  frame: Frame,
) {
  const random = randomSource(seed * 7919 + grade.length);
  return set.map(({ camera, jpeg: bytes }, index): SurveyPhoto => {
    const position = positionOf(camera, grade, random, frame);
    const model = SURVEY_CAMERAS.find(
      (c) => Math.abs(c.focalWidths * camera.width - camera.focalPx) < 1e-6,
    )?.model;
    return {
      name: `DJI_${String(index + 1).padStart(4, '0')}.JPG`,
      bytes: withExif(bytes, {
        focalPx: camera.focalPx,
        width: camera.width,
        height: camera.height,
        takenAt: takenAtOf(index),
        ...(model ? { model } : {}),
        ...(position ? { position } : {}),
      }),
    };
  });
}

/**
 * Photos of a scene flown with `plan`, written as a drone writes them (EXIF GPS of the given grade
 * in the frame of `origin`, focal length, camera model and capture date). Rendered once per
 * process for a `tag` naming the scene, seed and plan.
 */
export function photograph(
  subject: Scene | Stockpile,
  plan: FlightPlan,
  options: { seed: number; grade: PositionGrade; origin: Geodetic; tag: string },
): SurveyPhoto[] {
  const set = renderedSet(
    options.seed,
    surveyCameras(plan),
    `${options.tag}:${JSON.stringify(plan)}`,
    subject,
  );
  return photosOf(set, options.grade, options.seed, enuFrame(options.origin));
}

/** The survey of the stockpile, with positions of the given grade. */
export function generateSurvey(options: SurveyOptions = {}) {
  const seed = options.seed ?? 1;
  const shape = {
    grid: options.grid ?? ([3, 3] as [number, number]),
    spacingM: options.spacingM ?? 12,
    width: options.width ?? 800,
    height: options.height ?? 600,
    cameras: options.cameras ?? 1,
  };
  return {
    photos: photograph(SURVEY_PILE, shape, {
      seed,
      grade: options.grade ?? 'precise',
      origin: SURVEY_ORIGIN,
      tag: 'pile',
    }),
    trueVolumeM3: SURVEY_TRUE_VOLUME_M3,
    pile: SURVEY_PILE,
  };
}

/** Photos that share nothing: nadir shots of ground 400 m apart (each sees different texture). */
export function generateDisjointPhotos(count: number, seed = 1): SurveyPhoto[] {
  const image = { width: 400, height: 300, focalPx: 350 };
  const cameras = Array.from({ length: count }, (_, i) =>
    lookAt([400 * (i + 1), -400 * i, ALTITUDE_M], [400 * (i + 1), -400 * i, 0], image),
  );
  return photosOf(
    renderedSet(seed, cameras, `disjoint-${count}`, SURVEY_PILE),
    'precise',
    seed,
    enuFrame(SURVEY_ORIGIN),
  );
}
