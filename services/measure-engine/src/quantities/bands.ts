// Bands from uncertainties. A band is the 95 % interval of a figure: k = 1.96 times its one-sigma
// uncertainty, with random parts added in quadrature and systematic parts linearly within one
// capture (the same scale or warp error moves every figure of that capture the same way).
import type { Band, QuantityUnit, Uncertainty } from '../types.ts';

export const CONFIDENCE = 0.95;
export const COVERAGE_FACTOR = 1.96;

const round4 = (value: number): number => (value === 0 ? 0 : Number(value.toPrecision(4)));

export const totalSigma = (u: Uncertainty): number => Math.hypot(u.sigmaRandom, u.sigmaSystematic);

/**
 * The band of `value`. For a figure of exactly zero no fraction exists; the band then reports
 * relativeFraction 1 and its absolute width in plusMinus (docs/measurements.md).
 */
export function bandOf(value: number, unit: QuantityUnit, u: Uncertainty): Band {
  const plusMinus = COVERAGE_FACTOR * totalSigma(u);
  return {
    unit,
    relativeFraction: value === 0 ? 1 : round4(plusMinus / Math.abs(value)),
    plusMinus: round4(plusMinus),
    confidence: CONFIDENCE,
  };
}

/** Sum of figures from one capture: random parts in quadrature, systematic parts linearly. */
export function sumSameCapture(parts: readonly Uncertainty[]): Uncertainty {
  return {
    sigmaRandom: Math.sqrt(parts.reduce((a, u) => a + u.sigmaRandom ** 2, 0)),
    sigmaSystematic: parts.reduce((a, u) => a + u.sigmaSystematic, 0),
  };
}

/** Sum or difference of independent figures (other captures, drawn lines): all in quadrature. */
export function sumIndependent(parts: readonly Uncertainty[]): Uncertainty {
  return {
    sigmaRandom: Math.sqrt(parts.reduce((a, u) => a + u.sigmaRandom ** 2, 0)),
    sigmaSystematic: Math.sqrt(parts.reduce((a, u) => a + u.sigmaSystematic ** 2, 0)),
  };
}
