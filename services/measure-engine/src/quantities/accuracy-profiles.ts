// The error model's inputs per kind of capture. Lidar ranges each point, so its noise is small and
// its errors barely correlate; photogrammetry matches pixels, so its noise scales with the ground
// sample distance and, without ground control, the whole model can dome or tilt. The numbers are
// conservative defaults drawn from the ASPRS Positional Accuracy Standards (2nd ed., 2023) and
// published UAS stockpile studies; a surveyor's own check-point RMSE replaces them.
import type { AccuracyProfile, CaptureAccuracy, ControlKind, SensorKind } from '../types.js';

type Defaults = Omit<AccuracyProfile, 'sensor' | 'control' | 'source'>;

const LIDAR: Record<ControlKind, Defaults> = {
  gcp: {
    pointSigmaM: 0.02,
    correlatedSigmaM: 0.02,
    correlationLengthM: 10,
    warpSigmaM: 0.01,
    datumSigmaM: 0.03,
    scaleSigma: 0.0002,
  },
  rtk: {
    pointSigmaM: 0.02,
    correlatedSigmaM: 0.025,
    correlationLengthM: 10,
    warpSigmaM: 0.015,
    datumSigmaM: 0.05,
    scaleSigma: 0.0003,
  },
  ppk: {
    pointSigmaM: 0.02,
    correlatedSigmaM: 0.025,
    correlationLengthM: 10,
    warpSigmaM: 0.015,
    datumSigmaM: 0.05,
    scaleSigma: 0.0003,
  },
  none: {
    pointSigmaM: 0.03,
    correlatedSigmaM: 0.03,
    correlationLengthM: 15,
    warpSigmaM: 0.03,
    datumSigmaM: 0.5,
    scaleSigma: 0.0005,
  },
};

const PHOTOGRAMMETRY: Record<ControlKind, Defaults> = {
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
  none: {
    pointSigmaM: 0.04,
    correlatedSigmaM: 0.05,
    correlationLengthM: 30,
    warpSigmaM: 0.1,
    datumSigmaM: 2,
    scaleSigma: 0.005,
  },
};

const TABLES: Record<SensorKind, Record<ControlKind, Defaults>> = {
  lidar: LIDAR,
  photogrammetry: PHOTOGRAMMETRY,
};

/** Photogrammetric point noise is about two pixels on the ground. */
const PIXELS_OF_NOISE = 2;

export function accuracyProfile(accuracy: CaptureAccuracy): AccuracyProfile {
  const base = TABLES[accuracy.sensor][accuracy.control];
  const sources = [
    `${accuracy.sensor} with ${accuracy.control === 'none' ? 'no ground control' : accuracy.control}: engine defaults`,
  ];
  let pointSigmaM = base.pointSigmaM;
  if (accuracy.sensor === 'photogrammetry' && accuracy.gsdM !== undefined) {
    pointSigmaM = Math.max(pointSigmaM, PIXELS_OF_NOISE * accuracy.gsdM);
    sources.push(`point noise from GSD ${accuracy.gsdM} m`);
  }
  if (accuracy.pointSigmaM !== undefined) {
    pointSigmaM = accuracy.pointSigmaM;
    sources.push('point noise given by the operator');
  }
  let { correlatedSigmaM, datumSigmaM } = base;
  if (accuracy.checkpointRmseZM !== undefined) {
    // Check points measure the absolute vertical error; half of it is taken as the correlated part.
    datumSigmaM = accuracy.checkpointRmseZM;
    correlatedSigmaM = Math.max(correlatedSigmaM, accuracy.checkpointRmseZM / 2);
    sources.push(`check-point RMSEz ${accuracy.checkpointRmseZM} m`);
  }
  return {
    ...base,
    sensor: accuracy.sensor,
    control: accuracy.control,
    pointSigmaM,
    correlatedSigmaM,
    datumSigmaM,
    source: sources.join('; '),
  };
}
