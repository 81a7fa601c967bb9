// COLMAP's options per step, as data: the phases a run reports (with their share of the progress
// bar), how hard features are searched for per quality, and which matcher pairs the photos.
// Everything runs on CPU (the Debian build has no CUDA) with the threads the operator allows.
import { join } from 'node:path';
import type { Photo } from './photos.ts';

export const PHASES = {
  checking: { from: 0, to: 0.05, label: 'checking photos' },
  features: { from: 0.05, to: 0.3, label: 'extracting features' },
  matching: { from: 0.3, to: 0.5, label: 'matching photos' },
  mapping: { from: 0.5, to: 0.85, label: 'mapping' },
  georeferencing: { from: 0.85, to: 0.9, label: 'georeferencing' },
  measuring: { from: 0.9, to: 1, label: 'measuring volumes' },
} as const;
export type Phase = keyof typeof PHASES;

/**
 * Longest image side COLMAP works at, the most features kept per image, and spatial neighbours
 * matched per photo, by the run's quality. The feature cap is scaled down to the pixels COLMAP
 * actually works at (featuresFor): matching costs grow with the square of the features per pair.
 */
const FEATURES: Record<string, { maxImageSize: number; maxFeatures: number; neighbours: number }> = {
  draft: { maxImageSize: 1000, maxFeatures: 1500, neighbours: 10 },
  standard: { maxImageSize: 2000, maxFeatures: 4096, neighbours: 20 },
  high: { maxImageSize: 3200, maxFeatures: 8192, neighbours: 30 },
};
const featuresOf = (quality: string) => FEATURES[quality] ?? FEATURES['standard']!;

/**
 * One shared camera when every photo has the same size and EXIF focal length (one drone, one
 * flight): fewer unknowns, steadier intrinsics. SIMPLE_RADIAL, refined while mapping. Otherwise
 * COLMAP reads each photo's EXIF itself.
 */
function cameraOptions(photos: readonly Photo[]): Record<string, string | number> {
  const first = photos[0]!;
  const uniform = photos.every(
    (p) =>
      p.width === first.width &&
      p.height === first.height &&
      p.focalPx !== undefined &&
      Math.abs(p.focalPx - first.focalPx!) < 0.5,
  );
  const base = { 'ImageReader.camera_model': 'SIMPLE_RADIAL' };
  if (!uniform) return base;
  const params = [first.focalPx!, first.width / 2, first.height / 2, 0].map((v) => Number(v.toFixed(3)));
  return { ...base, 'ImageReader.single_camera': 1, 'ImageReader.camera_params': params.join(',') };
}

/** Features per working megapixel: enough for SIFT on textured ground, not more (COLMAP's default is 8192 per image). */
export const FEATURES_PER_MEGAPIXEL = 1400;
const MIN_FEATURES = 1000;

/**
 * The feature cap for the photos' working size: FEATURES_PER_MEGAPIXEL of the pixels COLMAP works
 * at (the longest side brought down to the quality's maxImageSize), within the quality's cap.
 */
export function featuresFor(photos: readonly Photo[], quality: string): number {
  const { maxImageSize, maxFeatures } = featuresOf(quality);
  const widest = photos.reduce((best, p) => (p.width * p.height > best.width * best.height ? p : best));
  const scale = Math.min(1, maxImageSize / Math.max(widest.width, widest.height));
  const megapixels = (widest.width * scale * widest.height * scale) / 1e6;
  return Math.round(Math.min(maxFeatures, Math.max(MIN_FEATURES, megapixels * FEATURES_PER_MEGAPIXEL)));
}

export function extractOptions(dir: string, photos: readonly Photo[], quality: string, threads: number) {
  const features = featuresOf(quality);
  return {
    database_path: join(dir, 'db.db'),
    image_path: join(dir, 'images'),
    ...cameraOptions(photos),
    'SiftExtraction.use_gpu': 0,
    'SiftExtraction.num_threads': threads,
    'SiftExtraction.max_image_size': features.maxImageSize,
    'SiftExtraction.max_num_features': featuresFor(photos, quality),
    // Below COLMAP's default (0.0067): piles of uniform material show little contrast.
    'SiftExtraction.peak_threshold': 0.0015,
  };
}

/**
 * Spatial matching when every photo is positioned: each photo is matched with its nearest
 * neighbours by GPS position only (cost linear in the photo count). Without positions for all,
 * exhaustive matching up to 40 photos, sequential (capture order) beyond.
 */
export function matcherFor(photos: readonly Photo[], quality: string, threads: number) {
  const sift = { 'SiftMatching.use_gpu': 0, 'SiftMatching.num_threads': threads };
  const neighbours = featuresOf(quality).neighbours;
  if (photos.every((p) => p.position)) {
    return {
      command: 'spatial_matcher',
      options: {
        ...sift,
        'SpatialMatching.is_gps': 1,
        'SpatialMatching.max_num_neighbors': neighbours,
        'SpatialMatching.max_distance': 1000,
      },
    };
  }
  if (photos.length <= 40) return { command: 'exhaustive_matcher', options: sift };
  return { command: 'sequential_matcher', options: { ...sift, 'SequentialMatching.overlap': neighbours } };
}

/** From this many photos on, global bundle adjustment runs less often (see mapperOptions). */
export const LARGE_SURVEY_PHOTOS = 60;

/**
 * The mapper's options. COLMAP re-runs global bundle adjustment each time the model grows by 10 %
 * (images or points); on a large survey those repeated global solves make mapping grow faster
 * than the photo count. From LARGE_SURVEY_PHOTOS on, the model must grow by 30 % between global
 * solves and each solve is capped in iterations; local bundle adjustment (the accuracy of each
 * newly registered photo) is left as it is, and a final global solve always runs.
 */
export function mapperOptions(dir: string, threads: number, photos = 0) {
  const base = {
    database_path: join(dir, 'db.db'),
    image_path: join(dir, 'images'),
    output_path: join(dir, 'sparse'),
    'Mapper.num_threads': threads,
  };
  if (photos < LARGE_SURVEY_PHOTOS) return base;
  return {
    ...base,
    'Mapper.ba_global_images_ratio': 1.3,
    'Mapper.ba_global_points_ratio': 1.3,
    'Mapper.ba_global_max_num_iterations': 30,
  };
}
