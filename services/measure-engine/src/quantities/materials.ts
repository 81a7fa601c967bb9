// Bulk densities (t/m³, loose stockpiled state) with their spread. A density is an assumption
// about material the survey cannot see, so tonnage carries its uncertainty on top of the volume's.
import { EngineError } from '../errors.ts';

export interface Material {
  readonly densityTPerM3: number;
  /** One-sigma relative uncertainty of the density. */
  readonly relativeSigma: number;
}

export const MATERIALS: Readonly<Record<string, Material>> = {
  'sand-dry': { densityTPerM3: 1.6, relativeSigma: 0.06 },
  'sand-wet': { densityTPerM3: 1.9, relativeSigma: 0.06 },
  gravel: { densityTPerM3: 1.7, relativeSigma: 0.06 },
  'crushed-stone': { densityTPerM3: 1.6, relativeSigma: 0.06 },
  topsoil: { densityTPerM3: 1.3, relativeSigma: 0.1 },
  clay: { densityTPerM3: 1.8, relativeSigma: 0.08 },
  'coal-bituminous': { densityTPerM3: 0.85, relativeSigma: 0.08 },
  'iron-ore': { densityTPerM3: 2.6, relativeSigma: 0.08 },
  asphalt: { densityTPerM3: 1.5, relativeSigma: 0.06 },
  concrete: { densityTPerM3: 2.4, relativeSigma: 0.04 },
};

/** A density the operator measured on site (core, scale ticket) is known to a few percent. */
export const MEASURED_DENSITY_RELATIVE_SIGMA = 0.03;

export function densityOf(
  regionId: string,
  material: string | undefined,
  densityTPerM3: number | undefined,
): Material | undefined {
  if (densityTPerM3 !== undefined) {
    if (!(densityTPerM3 > 0 && densityTPerM3 < 25)) {
      throw new EngineError(
        'invalid_region',
        `Region ${regionId}: a density of ${densityTPerM3} t/m³ is not a bulk density (0 to 25).`,
        regionId,
      );
    }
    return { densityTPerM3, relativeSigma: MEASURED_DENSITY_RELATIVE_SIGMA };
  }
  if (material === undefined) return undefined;
  const found = MATERIALS[material];
  if (!found) {
    throw new EngineError(
      'invalid_region',
      `Region ${regionId}: material "${material}" is not in the table (${Object.keys(MATERIALS).join(', ')}); give densityTPerM3 instead.`,
      regionId,
    );
  }
  return found;
}
