// The synthetic survey site: flat ground (z = 0) with one stockpile whose volume has a closed form,
// and a texture of many scales of value noise so SIFT finds features at every image scale. The
// pile is h(r) = H (1 - (r/R)²)² for r < R: smooth everywhere (no apex, no crease at the toe),
// and its volume is 2π ∫ H (1 - r²/R²)² r dr = π R² H / 3, the same as a cone of that size.

// Jest runs tests in a vm context, where every global lookup (Math) is slow: bind them once.
const { floor, imul, max, min, sqrt } = Math;
export interface Stockpile {
  radiusM: number;
  heightM: number;
  centre: [number, number];
}

export const pileHeight = (pile: Stockpile, x: number, y: number): number => {
  const r2 = ((x - pile.centre[0]) ** 2 + (y - pile.centre[1]) ** 2) / pile.radiusM ** 2;
  return r2 >= 1 ? 0 : pile.heightM * (1 - r2) ** 2;
};

export const pileVolume = (pile: Stockpile): number => (Math.PI * pile.radiusM ** 2 * pile.heightM) / 3;

/** An integer hash of a lattice corner (deterministic for a seed), to [0, 1). */
function lattice(ix: number, iy: number, salt: number): number {
  let h = imul(ix, 0x27d4eb2d) ^ imul(iy, 0x165667b1) ^ imul(salt, 0x9e3779b1);
  h = imul(h ^ (h >>> 15), 0x85ebca6b);
  h = imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

const smooth = (t: number): number => t * t * (3 - 2 * t);

function valueNoise(x: number, y: number, salt: number): number {
  const ix = floor(x);
  const iy = floor(y);
  const fx = smooth(x - ix);
  const fy = smooth(y - iy);
  const a = lattice(ix, iy, salt);
  const b = lattice(ix + 1, iy, salt);
  const c = lattice(ix, iy + 1, salt);
  const d = lattice(ix + 1, iy + 1, salt);
  return a + (b - a) * fx + (c - a) * fy + (a - b - c + d) * fx * fy;
}

/** Wavelengths of the texture, metres: from patches of material down to pebbles. */
const OCTAVES = [6, 3, 1.5, 0.8, 0.4, 0.2];

/** Albedo (0–1 per channel) of the surface at ground position (x, y). */
export function albedo(seed: number, x: number, y: number, out: Float64Array): void {
  let lum = 0;
  let weight = 0;
  for (const [i, wavelength] of OCTAVES.entries()) {
    const w = sqrt(wavelength);
    lum += w * valueNoise(x / wavelength, y / wavelength, seed * 31 + i);
    weight += w;
  }
  lum = 0.15 + 0.8 * (lum / weight - 0.5) * 2.2 + 0.4;
  const warm = valueNoise(x / 9, y / 9, seed * 31 + 97);
  out[0] = min(1, max(0, lum * (0.85 + 0.3 * warm)));
  out[1] = min(1, max(0, lum * 0.9));
  out[2] = min(1, max(0, lum * (1.1 - 0.3 * warm)));
}
