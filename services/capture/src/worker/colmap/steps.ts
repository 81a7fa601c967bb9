// COLMAP's options per step, as data: the phases a run reports (with their share of the progress
// bar), how hard features are searched for per quality, and which matcher pairs the photos.
// Everything runs on CPU (the Debian build has no CUDA) with the threads the operator allows.
import { join } from 'node:path';
import type { Photo } from './photos.js';

export const PHASES = {
  checking: { from: 0, to: 0.05, label: 'checking photos' },
  features: { from: 0.05, to: 0.3, label: 'extracting features' },
  matching: { from: 0.3, to: 0.5, label: 'matching photos' },
  mapping: { from: 0.5, to: 0.85, label: 'mapping' },
  georeferencing: { from: 0.85, to: 0.9, label: 'georeferencing' },
  measuring: { from: 0.9, to: 1, label: 'measuring volumes' },
} as const;
export type Phase = keyof typeof PHASES;

/** Longest image side COLMAP works at, and features kept per image, by the run's quality. */
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

export function extractOptions(dir: string, photos: readonly Photo[], quality: string, threads: number) {
  const features = featuresOf(quality);
  return {
    database_path: join(dir, 'db.db'),
    image_path: join(dir, 'images'),
    ...cameraOptions(photos),
    'SiftExtraction.use_gpu': 0,
    'SiftExtraction.num_threads': threads,
    'SiftExtraction.max_image_size': features.maxImageSize,
    'SiftExtraction.max_num_features': features.maxFeatures,
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

export const mapperOptions = (dir: string, threads: number) => ({
  database_path: join(dir, 'db.db'),
  image_path: join(dir, 'images'),
  output_path: join(dir, 'sparse'),
  'Mapper.num_threads': threads,
});
