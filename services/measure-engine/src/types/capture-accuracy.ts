// How the capture was made, as far as it drives the error model of what is measured on it.
// Part of the engine's types (see ../types.ts). Canonical SI: metres, square metres, cubic metres, tonnes;
// units are UCUM codes ('m', 'm2', 'm3', 't').

/** Lidar ranges each point; photogrammetry matches images, so its errors are larger and correlated. */
export type SensorKind = 'lidar' | 'photogrammetry';

/** How the capture was tied to the ground. 'gcp': surveyed ground control points in the solution. */
export type ControlKind = 'gcp' | 'rtk' | 'ppk' | 'none';

/**
 * Where the positions that georeference a photogrammetric model come from: consumer GNSS in the
 * photos' EXIF ('gps', metres of error), corrected GNSS ('rtk', 'ppk', centimetres), or surveyed
 * ground control points ('control').
 */
export type PositionSource = 'gps' | 'rtk' | 'ppk' | 'control';

/**
 * How a capture was made, as far as it bears on the error of what is measured on it. `sensor` and
 * `control` come from the capture (hasLidar, control); the rest is optional evidence that narrows
 * or widens the defaults of accuracy-profiles.ts. docs/measurements.md gives the formula.
 */
export interface CaptureAccuracy {
  readonly sensor: SensorKind;
  readonly control: ControlKind;
  /** Ground sample distance of the images (photogrammetry), metres per pixel. */
  readonly gsdM?: number;
  /** Vertical RMSE measured at independent check points, when the surveyor has one. */
  readonly checkpointRmseZM?: number;
  /** One-sigma noise of a single point, when the operator knows it better than the defaults. */
  readonly pointSigmaM?: number;
  /** Photogrammetry: what georeferenced the model. Selects the profile when `control` is 'none'. */
  readonly positionSource?: PositionSource;
  /**
   * Photogrammetry: RMS residual (m, 3D) of the similarity transform that aligned the model to its
   * reference positions (camera centres or control points), as the aligner reports it.
   */
  readonly alignmentRmseM?: number;
  /** RMS distance (m) of those reference positions from their centroid: the lever arm of the scale. */
  readonly alignmentSpanM?: number;
  /** How many reference positions the alignment used. */
  readonly alignmentPoints?: number;
  /**
   * Photogrammetry: a measured dome, as the curvature c (1/m) of up = c · r² fitted to the
   * alignment's vertical residuals over the reference positions (r from their centroid). A model
   * that bends like this puts a region's middle c · R² / 2 off a base fitted to its boundary; when
   * that is more than the profile's warp, it widens the band (docs/measurements.md).
   */
  readonly warpCurvaturePerM?: number;
}
