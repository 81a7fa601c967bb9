// The base a region is measured against: a plane z = z0 + sx·(x − x0) + sy·(y − y0) fitted by
// least squares to the captured surface along the region's boundary (the pad a pile sits on, the
// ground around a pit), with outliers beyond three robust sigmas rejected and the fit repeated.

export interface PlaneFit {
  readonly x0: number;
  readonly y0: number;
  readonly z0: number;
  readonly sx: number;
  readonly sy: number;
  readonly samples: number;
  readonly outliers: number;
  readonly residualRms: number;
  /** Parameter covariance of (z0, sx, sy) per unit residual variance: (AᵀA)⁻¹. */
  readonly inverseNormal: readonly number[];
}

const REJECTION_SIGMAS = 3;
const MAX_PASSES = 3;

/** Solves the 3×3 system m·x = b (m row-major); null when m is singular. */
export function solve3(m: number[], b: number[]): { x: number[]; inverse: number[] } | null {
  const [a, bb, c, d, e, f, g, h, i] = m as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const det = a * (e * i - f * h) - bb * (d * i - f * g) + c * (d * h - e * g);
  if (Math.abs(det) < 1e-12) return null;
  const inv = [
    (e * i - f * h) / det,
    (c * h - bb * i) / det,
    (bb * f - c * e) / det,
    (f * g - d * i) / det,
    (a * i - c * g) / det,
    (c * d - a * f) / det,
    (d * h - e * g) / det,
    (bb * g - a * h) / det,
    (a * e - bb * d) / det,
  ];
  const x = [0, 1, 2].map(
    (r) =>
      (inv[r * 3] as number) * (b[0] as number) +
      (inv[r * 3 + 1] as number) * (b[1] as number) +
      (inv[r * 3 + 2] as number) * (b[2] as number),
  );
  return { x, inverse: inv };
}

function fitOnce(xs: number[], ys: number[], zs: number[], keep: boolean[], x0: number, y0: number) {
  const m = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const b = [0, 0, 0];
  for (let k = 0; k < xs.length; k++) {
    if (!keep[k]) continue;
    const row = [1, (xs[k] as number) - x0, (ys[k] as number) - y0];
    for (let r = 0; r < 3; r++) {
      b[r] = (b[r] as number) + (row[r] as number) * (zs[k] as number);
      for (let c = 0; c < 3; c++)
        m[r * 3 + c] = (m[r * 3 + c] as number) + (row[r] as number) * (row[c] as number);
    }
  }
  return solve3(m, b);
}

/** Null when fewer than three samples or the samples are collinear (no plane is determined). */
export function fitPlane(xs: number[], ys: number[], zs: number[]): PlaneFit | null {
  const n = xs.length;
  if (n < 3) return null;
  const x0 = xs.reduce((a, v) => a + v, 0) / n;
  const y0 = ys.reduce((a, v) => a + v, 0) / n;
  const keep = new Array<boolean>(n).fill(true);
  let solution = fitOnce(xs, ys, zs, keep, x0, y0);
  for (let pass = 0; pass < MAX_PASSES && solution; pass++) {
    const [z0, sx, sy] = solution.x as [number, number, number];
    const residuals = zs.map(
      (z, k) => z - (z0 + sx * ((xs[k] as number) - x0) + sy * ((ys[k] as number) - y0)),
    );
    const absolute = residuals
      .filter((_, k) => keep[k])
      .map(Math.abs)
      .sort((a, b) => a - b);
    const robustSigma = 1.4826 * (absolute[absolute.length >> 1] as number);
    let changed = false;
    residuals.forEach((r, k) => {
      const inlier = Math.abs(r) <= REJECTION_SIGMAS * robustSigma || robustSigma === 0;
      if (inlier !== keep[k]) changed = true;
      keep[k] = inlier;
    });
    if (!changed || keep.filter(Boolean).length < 3) break;
    solution = fitOnce(xs, ys, zs, keep, x0, y0) ?? solution;
  }
  if (!solution) return null;
  const [z0, sx, sy] = solution.x as [number, number, number];
  let sumSq = 0;
  let used = 0;
  for (let k = 0; k < n; k++) {
    if (!keep[k]) continue;
    const r = (zs[k] as number) - (z0 + sx * ((xs[k] as number) - x0) + sy * ((ys[k] as number) - y0));
    sumSq += r * r;
    used++;
  }
  return {
    x0,
    y0,
    z0,
    sx,
    sy,
    samples: used,
    outliers: n - used,
    residualRms: Math.sqrt(sumSq / Math.max(1, used - 3)),
    inverseNormal: solution.inverse,
  };
}

export const planeAt = (plane: PlaneFit, x: number, y: number): number =>
  plane.z0 + plane.sx * (x - plane.x0) + plane.sy * (y - plane.y0);

/** Variance (per unit residual variance) of the plane's height at (x, y): pᵀ(AᵀA)⁻¹p. */
export function predictionFactor(plane: PlaneFit, x: number, y: number): number {
  const p = [1, x - plane.x0, y - plane.y0];
  let v = 0;
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++)
      v += (p[r] as number) * (plane.inverseNormal[r * 3 + c] as number) * (p[c] as number);
  return v;
}
