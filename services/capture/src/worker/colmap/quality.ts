// The reconstruction's quality as typed figures (capture.ReconstructionQuality): photos given and
// registered, reprojection error, points kept and by which filter, GSD, the alignment's residual,
// a measured dome, the base fit's residual, when the photos were taken, the datum of the heights —
// and warnings that say what went wrong and what to do. Thresholds are data, here, so the warnings,
// the docs (docs/measurements.md, "Reconstruction quality") and the tests read one table.
import type { capture, measurements } from '@fieldops/proto';
import type { AlignmentFit, Reference } from './georeference.ts';
import type { Photo } from './photos.ts';
import type { SparsePoints } from './sparse-model.ts';

export const QUALITY_LIMITS = {
  /** A share of photos registered below this is reported. */
  registeredShare: 0.95,
  /** Mean reprojection error above this (px) is high for a calibrated model. */
  meanErrorPx: 2,
  /** Alignment RMSE above this (m) is more than consumer GPS explains. */
  alignmentRmseM: 5,
  /** A region's base residual above this (m) means its boundary is not ground on a plane. */
  baseResidualM: 0.5,
  /** Fewer kept points than this share of the model's are reported. */
  keptShare: 0.3,
} as const;

export interface QualityInput {
  photos: readonly Photo[];
  registered: number;
  points: SparsePoints;
  fit: AlignmentFit;
  reference: Reference;
  gsdM: number | undefined;
  warpCurvaturePerM: number | undefined;
  quantities: measurements.SiteQuantities | undefined;
}

/** When the photos were taken: the earliest and latest EXIF date; uploadedAt is the service's. */
export function captureDateOf(photos: readonly Photo[]): capture.CaptureDate {
  const dates = photos
    .flatMap((p) => (p.takenAt ? [p.takenAt] : []))
    .sort((a, b) => (a.iso < b.iso ? -1 : 1));
  const first = dates[0];
  const last = dates.at(-1);
  if (!first || !last)
    return { takenAt: '', source: 'none', firstTakenAt: '', lastTakenAt: '', uploadedAt: '' };
  return {
    takenAt: first.iso,
    source: first.hasOffset ? 'exif-with-offset' : 'exif-local-time',
    firstTakenAt: first.iso,
    lastTakenAt: last.iso,
    uploadedAt: '',
  };
}

const baseResidualOf = (q: measurements.SiteQuantities | undefined): number | undefined => {
  const residuals = (q?.regions ?? []).flatMap((r) =>
    r.base?.residualRmsM !== undefined ? [r.base.residualRmsM] : [],
  );
  return residuals.length ? Math.max(...residuals) : undefined;
};

function warningsOf(input: QualityInput, baseResidualM: number | undefined): capture.QualityWarning[] {
  const { photos, registered, points, fit } = input;
  const warnings: capture.QualityWarning[] = [];
  const warn = (code: string, message: string, action: string) => warnings.push({ code, message, action });
  if (registered < photos.length * QUALITY_LIMITS.registeredShare) {
    warn(
      'photos-unregistered',
      `${photos.length - registered} of ${photos.length} photos could not be placed in the model; the ground they alone show is not measured.`,
      'Check those photos for blur or a lack of overlap; fly with 70–80 % overlap between neighbouring photos, and reprocess.',
    );
  }
  if (points.meanErrorPx > QUALITY_LIMITS.meanErrorPx) {
    warn(
      'reprojection-error-high',
      `The mean reprojection error is ${points.meanErrorPx.toFixed(2)} px (above ${QUALITY_LIMITS.meanErrorPx} px): the lens model fits the photos poorly, or photos are blurred.`,
      'Reprocess at quality "high"; if it stays high, fly again with a faster shutter and check the camera is not mixing zoom settings.',
    );
  }
  if (fit.rmseM > QUALITY_LIMITS.alignmentRmseM) {
    warn(
      'alignment-rmse-high',
      `The camera positions fit the photos' GPS to ${fit.rmseM.toFixed(1)} m RMS (above ${QUALITY_LIMITS.alignmentRmseM} m): scale and heights are uncertain.`,
      'Check the photos carry their own GPS positions (not copied), or add ground control points.',
    );
  }
  if (points.total > 0 && points.count < points.total * QUALITY_LIMITS.keptShare) {
    warn(
      'few-points-kept',
      `Only ${points.count} of ${points.total} points passed the keep-filter: the surface is sparse and its cells are large.`,
      'Fly lower or with more overlap, or reprocess at quality "high".',
    );
  }
  if (baseResidualM !== undefined && baseResidualM > QUALITY_LIMITS.baseResidualM) {
    warn(
      'base-residual-high',
      `A region's base fits its boundary to ${baseResidualM.toFixed(2)} m RMS: the ground around it is not a plane (a domed model, or trees and buildings on the boundary); the band is widened for it.`,
      'State regions whose boundaries lie on bare ground, or give a fixed base elevation.',
    );
  }
  if (input.warpCurvaturePerM !== undefined) {
    const radius = fit.leverM;
    warn(
      'dome-measured',
      `The model is domed: the camera heights bend by about ${Math.abs(input.warpCurvaturePerM * radius * radius).toFixed(2)} m over ${radius.toFixed(0)} m from the centre, a structure-from-motion artefact of nadir-only flights; the band is widened for it.`,
      'Add an oblique or cross-hatched pass to the flight, or ground control points, and capture again.',
    );
  }
  return warnings;
}

export function reconstructionQuality(input: QualityInput): capture.ReconstructionQuality {
  const { photos, registered, points, fit, reference, gsdM, warpCurvaturePerM } = input;
  const baseResidualM = baseResidualOf(input.quantities);
  return {
    photosGiven: photos.length,
    photosRegistered: registered,
    meanReprojectionErrorPx: points.meanErrorPx,
    medianReprojectionErrorPx: points.medianErrorPx,
    ...(gsdM !== undefined ? { gsdM } : {}),
    pointsTotal: points.total,
    pointsKept: points.count,
    keepFilter: { ...points.filter },
    alignmentRmseM: fit.rmseM,
    alignmentPositions: fit.compared,
    ...(baseResidualM !== undefined ? { baseResidualM } : {}),
    ...(warpCurvaturePerM !== undefined ? { warpCurvaturePerM } : {}),
    warnings: warningsOf(input, baseResidualM),
    captureDate: captureDateOf(photos),
    heightDatum: {
      name: 'gps-ellipsoidal',
      offsetM: reference.origin.alt,
      description: `Heights are z + ${reference.origin.alt.toFixed(2)} m above the WGS 84 ellipsoid, as the photos' GPS records altitude (not above sea level).`,
    },
  };
}
