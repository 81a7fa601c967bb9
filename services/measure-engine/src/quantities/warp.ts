// The warp term of a region's band: the low-frequency deformation of the model that a base fitted
// to the region's boundary does not remove. The profile assumes one (warpSigmaM, grown with the
// square of the region's size); the capture may show more, and then the band must say so:
// - the base fit's residual beyond the capture's noise: a boundary that is not a plane is ground
//   the base cannot follow (a domed model, or trees and houses on the toe);
// - a measured dome (CaptureAccuracy.warpCurvaturePerM): up = c · r² puts the middle of a region
//   of half-diagonal h off its boundary-fitted base by up to c · h² / 2.
// The largest of the three is applied, and reported with its source.
import type { AccuracyProfile, WarpSource } from '../types.ts';

/** Span over which a profile's warpSigma is the full low-frequency deformation of the model. */
export const WARP_LENGTH_M = 100;

export interface WarpEvidence {
  /** Diagonal of the region's bounding box, metres. */
  readonly diagonalM: number;
  /** Whether the base is fitted to the boundary (else a fixed elevation: the whole warp counts). */
  readonly fitted: boolean;
  /** RMS residual of the boundary fit beyond the capture's correlated noise, metres. */
  readonly excessResidualM?: number;
  readonly warpCurvaturePerM?: number;
}

export interface AppliedWarp {
  readonly sigmaM: number;
  readonly source: WarpSource;
}

export function appliedWarp(profile: AccuracyProfile, evidence: WarpEvidence): AppliedWarp {
  const scaled = evidence.fitted ? Math.min(1, (evidence.diagonalM / WARP_LENGTH_M) ** 2) : 1;
  let best: AppliedWarp = { sigmaM: profile.warpSigmaM * scaled, source: 'profile' };
  // Only a residual larger than the profile's own warp is evidence of more deformation.
  const residual = evidence.fitted ? (evidence.excessResidualM ?? 0) : 0;
  if (residual > profile.warpSigmaM && residual > best.sigmaM) {
    best = { sigmaM: residual, source: 'base-residual' };
  }
  const halfDiagonal = evidence.diagonalM / 2;
  const dome = Math.abs(evidence.warpCurvaturePerM ?? 0) * (halfDiagonal * halfDiagonal) * 0.5;
  if (dome > best.sigmaM) best = { sigmaM: dome, source: 'measured-dome' };
  return best;
}
