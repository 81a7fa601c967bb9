// The error model's inputs per kind of capture. Lidar ranges each point, so its noise is small and
// its errors barely correlate; photogrammetry matches pixels, so its noise scales with the ground
// sample distance and, without ground control, the whole model can dome or tilt. The numbers are
// conservative defaults drawn from the ASPRS Positional Accuracy Standards (2nd ed., 2023) and
// published UAS stockpile studies; a surveyor's own check-point RMSE replaces them. A photogrammetry
// run that reports how well its model aligned to its reference positions (alignmentRmseM over
// alignmentSpanM and alignmentPoints) gets its scale error from that evidence instead of the row's.
import type { AccuracyProfile, CaptureAccuracy, ControlKind, PositionSource } from '../types.ts';

type Defaults = Pick<
  AccuracyProfile,
  'pointSigmaM' | 'correlatedSigmaM' | 'correlationLengthM' | 'warpSigmaM' | 'datumSigmaM' | 'scaleSigma'
>;

// Lidar's correlated error is strip misfit and boresight error, coherent over about a strip width
// (20 m for a survey drone at 60 m above ground; 30 m without control to tie the strips).
const LIDAR: Record<ControlKind, Defaults> = {
  gcp: {
    pointSigmaM: 0.02,
    correlatedSigmaM: 0.02,
    correlationLengthM: 20,
    warpSigmaM: 0.01,
    datumSigmaM: 0.03,
    scaleSigma: 0.0002,
  },
  rtk: {
    pointSigmaM: 0.02,
    correlatedSigmaM: 0.025,
    correlationLengthM: 20,
    warpSigmaM: 0.015,
    datumSigmaM: 0.05,
    scaleSigma: 0.0003,
  },
  ppk: {
    pointSigmaM: 0.02,
    correlatedSigmaM: 0.025,
    correlationLengthM: 20,
    warpSigmaM: 0.015,
    datumSigmaM: 0.05,
    scaleSigma: 0.0003,
  },
  none: {
    pointSigmaM: 0.03,
    correlatedSigmaM: 0.03,
    correlationLengthM: 30,
    warpSigmaM: 0.03,
    datumSigmaM: 0.5,
    scaleSigma: 0.0005,
  },
};

type PhotoRow = ControlKind | 'gps';

const PHOTOGRAMMETRY: Record<PhotoRow, Defaults> = {
  gcp: {
    pointSigmaM: 0.03,
    correlatedSigmaM: 0.03,
    correlationLengthM: 20,
    warpSigmaM: 0.02,
    datumSigmaM: 0.04,
    scaleSigma: 0.0005,
  },
  rtk: {
    pointSigmaM: 0.03,
    correlatedSigmaM: 0.04,
    correlationLengthM: 20,
    warpSigmaM: 0.04,
    datumSigmaM: 0.06,
    scaleSigma: 0.001,
  },
  ppk: {
    pointSigmaM: 0.03,
    correlatedSigmaM: 0.04,
    correlationLengthM: 20,
    warpSigmaM: 0.04,
    datumSigmaM: 0.06,
    scaleSigma: 0.001,
  },
  // Consumer GNSS in the photos: metres of error per position, so the scale of the model is known
  // to about 2 % (5-8 % in volume in the COLMAP trials of issue 16) unless the alignment says better.
  gps: {
    pointSigmaM: 0.04,
    correlatedSigmaM: 0.05,
    correlationLengthM: 30,
    warpSigmaM: 0.1,
    datumSigmaM: 5,
    scaleSigma: 0.02,
  },
  none: {
    pointSigmaM: 0.04,
    correlatedSigmaM: 0.05,
    correlationLengthM: 30,
    warpSigmaM: 0.1,
    datumSigmaM: 2,
    scaleSigma: 0.005,
  },
};

/** The scale of a model is never known better than this, whatever the alignment reports. */
const MIN_SCALE_SIGMA = 0.0003;

const POSITION_ROWS: Record<PositionSource, PhotoRow> = {
  gps: 'gps',
  rtk: 'rtk',
  ppk: 'ppk',
  control: 'gcp',
};

/** The table row: control declared on the capture wins; else the run's position source. */
function rowOf(accuracy: CaptureAccuracy): { name: string; defaults: Defaults } {
  if (accuracy.sensor === 'lidar') {
    return { name: `lidar/${accuracy.control}`, defaults: LIDAR[accuracy.control] };
  }
  const row: PhotoRow =
    accuracy.control !== 'none'
      ? accuracy.control
      : accuracy.positionSource
        ? POSITION_ROWS[accuracy.positionSource]
        : 'none';
  return { name: `photogrammetry/${row}`, defaults: PHOTOGRAMMETRY[row] };
}

/**
 * Scale and datum from the alignment: n reference positions with residual r spread over a span s
 * fix the model's scale to r / (s·√n) and its offset to r / √n (docs/measurements.md).
 */
function fromAlignment(accuracy: CaptureAccuracy): { scaleSigma: number; datumSigmaM: number } | null {
  const { alignmentRmseM: r, alignmentSpanM: span, alignmentPoints: n } = accuracy;
  if (r === undefined || span === undefined || n === undefined) return null;
  if (!(r >= 0 && span > 0 && n >= 3)) return null;
  return { scaleSigma: Math.max(MIN_SCALE_SIGMA, r / (span * Math.sqrt(n))), datumSigmaM: r / Math.sqrt(n) };
}

/** Photogrammetric point noise is about two pixels on the ground. */
const PIXELS_OF_NOISE = 2;

export function accuracyProfile(accuracy: CaptureAccuracy): AccuracyProfile {
  const { name, defaults: base } = rowOf(accuracy);
  const sources = [`${name}: engine defaults`];
  let pointSigmaM = base.pointSigmaM;
  if (accuracy.sensor === 'photogrammetry' && accuracy.gsdM !== undefined) {
    pointSigmaM = Math.max(pointSigmaM, PIXELS_OF_NOISE * accuracy.gsdM);
    sources.push(`point noise from GSD ${accuracy.gsdM} m`);
  }
  if (accuracy.pointSigmaM !== undefined) {
    pointSigmaM = accuracy.pointSigmaM;
    sources.push('point noise given by the operator');
  }
  let { correlatedSigmaM, datumSigmaM, scaleSigma } = base;
  const aligned = accuracy.sensor === 'photogrammetry' ? fromAlignment(accuracy) : null;
  if (aligned) {
    scaleSigma = aligned.scaleSigma;
    // A bias common to every reference position does not show in the residual: never below the row.
    datumSigmaM = Math.max(datumSigmaM, aligned.datumSigmaM);
    sources.push(
      `scale from the alignment: RMSE ${accuracy.alignmentRmseM} m over ${accuracy.alignmentPoints} positions spanning ${accuracy.alignmentSpanM} m`,
    );
  }
  if (accuracy.checkpointRmseZM !== undefined) {
    // Check points measure the absolute vertical error; half of it is taken as the correlated part.
    datumSigmaM = accuracy.checkpointRmseZM;
    correlatedSigmaM = Math.max(correlatedSigmaM, accuracy.checkpointRmseZM / 2);
    sources.push(`check-point RMSEz ${accuracy.checkpointRmseZM} m`);
  }
  return {
    ...base,
    name,
    sensor: accuracy.sensor,
    control: accuracy.control,
    ...(accuracy.sensor === 'photogrammetry' && accuracy.positionSource
      ? { positionSource: accuracy.positionSource }
      : {}),
    ...(aligned ? { alignmentRmseM: accuracy.alignmentRmseM } : {}),
    pointSigmaM,
    correlatedSigmaM,
    datumSigmaM,
    scaleSigma,
    source: sources.join('; '),
  };
}
