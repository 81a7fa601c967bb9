// One region's cut, fill, net, footprint and tonnage against its base, with the one-sigma
// uncertainty of each figure split into the part that is the region's own (random) and the part
// every figure of the capture shares (systematic). docs/measurements.md derives each term.
import { EngineError } from '../errors.ts';
import { MAX_BOUNDARY_SAMPLES, MIN_BOUNDARY_COVERAGE, MIN_REGION_MEASURED_FRACTION } from '../limits.ts';
import { boundarySamples } from '../geometry/polygon.ts';
import { forEachCellInside } from '../geometry/scanline.ts';
import type { Polygon } from '../geometry/polygon.ts';
import { CellState } from '../surface/grid.ts';
import type { SurfaceGrid } from '../surface/grid.ts';
import type { AccuracyProfile, BaseReport, RegionCoverage, Uncertainty, VolumeField } from '../types.ts';
import { fitPlane, planeAt, predictionFactor } from '../geometry/base-plane.ts';
import { appliedWarp } from './warp.ts';
import type { PlaneFit } from '../geometry/base-plane.ts';
import type { Material } from './materials.ts';
import { toeBase } from './toe-bases.ts';
import type { ToeBase, ToeBaseKind } from './toe-bases.ts';

/**
 * A cell whose height above the base is within this many sigmas is "at grade": its sign is noise.
 * Such cells are summed signed, and their sum goes to fill or cut as one amount, instead of each
 * cell's noise being folded into both (E[max(e, 0)] = σ/√(2π) per cell, which summed over a flat
 * pad gave cut from nothing and inflated the fill by as much).
 */
const NOISE_SIGMAS = 2;
/**
 * Share of the terrain's bending inside cells (grid.roughness) that a gridded surface gets wrong,
 * with one sign along a whole ridge or rim (so summed linearly): calibrated on sparse clouds of
 * cones and frustums (test/bands.property.test.ts).
 */
const SAMPLING_GAIN = 0.1;

export interface RegionMeasure {
  readonly cut: number;
  readonly fill: number;
  readonly net: number;
  readonly footprint: number;
  readonly tonnage: number | null;
  readonly uncertainty: Partial<Record<VolumeField, Uncertainty>>;
  readonly coverage: RegionCoverage;
  readonly base: BaseReport | ToeBase['report'];
  readonly disclosures: string[];
}

export type RegionBase = { kind: 'fitted-plane' } | { kind: 'elevation'; z: number } | { kind: ToeBaseKind };

interface CellSums {
  total: number;
  measured: number;
  interpolated: number;
  cells: number[];
}

function cellsInside(grid: SurfaceGrid, polygon: Polygon): CellSums {
  const sums: CellSums = { total: 0, measured: 0, interpolated: 0, cells: [] };
  forEachCellInside(grid, polygon, (row, col) => {
    const i = row * grid.columns + col;
    sums.total++;
    if (grid.state[i] === CellState.Measured) sums.measured++;
    else if (grid.state[i] === CellState.Interpolated) sums.interpolated++;
    else return;
    sums.cells.push(i);
  });
  return sums;
}

function fitBase(
  grid: SurfaceGrid,
  polygon: Polygon,
  regionId: string,
): { plane: PlaneFit; coverage: number } {
  const samples = boundarySamples(polygon, grid.cellSize, MAX_BOUNDARY_SAMPLES);
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  for (const [x, y] of samples) {
    const i = grid.cellAt(x, y);
    if (i < 0 || grid.state[i] === CellState.Void) continue;
    // A cell's value is the surface at its centre: fitting it at the sample's own position would
    // shift the plane by up to half a cell along the slope (a bias of slope × c/2 in height).
    xs.push(grid.centreX(i % grid.columns));
    ys.push(grid.centreY(Math.floor(i / grid.columns)));
    zs.push(grid.value[i] as number);
  }
  const coverage = samples.length > 0 ? xs.length / samples.length : 0;
  if (coverage < MIN_BOUNDARY_COVERAGE) {
    throw new EngineError(
      'region_not_covered',
      `Region ${regionId}: the cloud covers only ${Math.round(coverage * 100)} % of the region's boundary; a base is fitted to the boundary and needs at least ${MIN_BOUNDARY_COVERAGE * 100} %. Draw the boundary on captured ground or give a base elevation.`,
      regionId,
    );
  }
  const plane = fitPlane(xs, ys, zs);
  if (!plane) {
    throw new EngineError(
      'invalid_region',
      `Region ${regionId}: the boundary samples are collinear; no base plane can be fitted.`,
      regionId,
    );
  }
  return { plane, coverage };
}

/** Heights above the base summed per side (in m; times the cell area is a volume), with variances. */
interface HeightSums {
  fill: number;
  cut: number;
  atGrade: number;
  fillCells: number;
  cutCells: number;
  atGradeCells: number;
  varFill: number;
  varCut: number;
  varAtGrade: number;
  varAll: number;
  dzSq: number;
  roughness: number;
}

function accumulate(grid: SurfaceGrid, cells: readonly number[], baseAt: (x: number, y: number) => number) {
  const sums: HeightSums = {
    fill: 0,
    cut: 0,
    atGrade: 0,
    fillCells: 0,
    cutCells: 0,
    atGradeCells: 0,
    varFill: 0,
    varCut: 0,
    varAtGrade: 0,
    varAll: 0,
    dzSq: 0,
    roughness: 0,
  };
  for (const i of cells) {
    const dz =
      (grid.value[i] as number) -
      baseAt(grid.centreX(i % grid.columns), grid.centreY(Math.floor(i / grid.columns)));
    const variance = grid.variance[i] as number;
    sums.varAll += variance;
    sums.dzSq += dz * dz;
    sums.roughness += grid.roughness[i] as number;
    if (Math.abs(dz) < NOISE_SIGMAS * Math.sqrt(variance)) {
      sums.atGrade += dz;
      sums.atGradeCells++;
      sums.varAtGrade += variance;
    } else if (dz > 0) {
      sums.fill += dz;
      sums.fillCells++;
      sums.varFill += variance;
    } else {
      sums.cut -= dz;
      sums.cutCells++;
      sums.varCut += variance;
    }
  }
  return sums;
}

/** Calibrated on Gaussian-correlated fields (test/bands.property.test.ts, docs/measurements.md). */
const ABSORBED_GAIN = 0.12;
const PATCHES_GAIN = Math.sqrt(2 * Math.PI);

/**
 * σ of a volume over `area` m² from an error of σ m correlated over `length` m (covariance
 * σ²·exp(−r²/2L²)). Against a fixed elevation every patch counts: σ·√(A·min(A, 2πL²)). Against a
 * base fitted to the boundary of a region of size D = √(region area), the part of the field the
 * region's boundary also sees is taken out with the plane: what remains grows as (D/L)² until the
 * region spans many patches, where it is σ·√(2π)·L·√A.
 */
function correlatedVolumeSigma(
  sigma: number,
  length: number,
  area: number,
  regionArea: number,
  fittedBase: boolean,
): number {
  if (!fittedBase) return sigma * Math.sqrt(area * Math.min(area, 2 * Math.PI * length * length));
  const relative = regionArea / (length * length);
  return (
    sigma *
    Math.sqrt(area * Math.min(area, length * length)) *
    Math.min(PATCHES_GAIN, ABSORBED_GAIN * relative)
  );
}

export function measureRegion(
  grid: SurfaceGrid,
  polygon: Polygon,
  regionId: string,
  baseSpec: RegionBase,
  profile: AccuracyProfile,
  material: Material | undefined,
  warpCurvaturePerM?: number,
): RegionMeasure {
  const c = grid.cellSize;
  const cellArea = c * c;
  const inside = cellsInside(grid, polygon);
  if (inside.total === 0) {
    throw new EngineError(
      'invalid_region',
      `Region ${regionId} is smaller than one grid cell (${c} m); draw it larger or give a smaller cellSizeM.`,
      regionId,
    );
  }
  const measuredFraction = inside.measured / inside.total;
  if (measuredFraction < MIN_REGION_MEASURED_FRACTION) {
    throw new EngineError(
      'region_not_covered',
      `Region ${regionId}: only ${Math.round(measuredFraction * 100)} % of it holds captured points; at least ${MIN_REGION_MEASURED_FRACTION * 100} % is needed to measure it.`,
      regionId,
    );
  }
  const fitted = baseSpec.kind === 'fitted-plane' ? fitBase(grid, polygon, regionId) : undefined;
  const toe =
    baseSpec.kind === 'triangulated' || baseSpec.kind === 'lowest-point'
      ? toeBase(grid, polygon, regionId, baseSpec.kind)
      : undefined;
  // Read off the same surface as the region (fitted or from the toe): the datum error cancels.
  const relative = fitted !== undefined || toe !== undefined;

  // Centroid of the measured cells: the base's tilt errors cancel there, its height error does not.
  let cx = 0;
  let cy = 0;
  for (const i of inside.cells) {
    cx += grid.centreX(i % grid.columns);
    cy += grid.centreY(Math.floor(i / grid.columns));
  }
  cx /= inside.cells.length;
  cy /= inside.cells.length;

  const level = baseSpec.kind === 'elevation' ? baseSpec.z : 0;
  const baseAt = fitted ? (x: number, y: number) => planeAt(fitted.plane, x, y) : (toe?.at ?? (() => level));
  const sums = accumulate(grid, inside.cells, baseAt);
  // The at-grade cells' signed sum joins the side it falls on; both sides carry its variance and area.
  if (sums.atGrade > 0) sums.fill += sums.atGrade;
  else sums.cut -= sums.atGrade;
  sums.fill *= cellArea;
  sums.cut *= cellArea;
  const area = inside.cells.length * cellArea;
  const fillArea = (sums.fillCells + sums.atGradeCells) * cellArea;
  const cutArea = (sums.cutCells + sums.atGradeCells) * cellArea;
  const voidCells = inside.total - inside.cells.length;
  const voidArea = voidCells * cellArea;
  const rmsDz = Math.sqrt(sums.dzSq / inside.cells.length);

  // Height error of the base at the centroid: the fit's own, inflated because neighbouring
  // boundary samples are not independent (terrain correlates over the profile's length). The part
  // of the boundary's scatter that is the capture's correlated error is in the correlated term
  // (calibrated with the base fitted, so it includes the base's share): only the rest counts here.
  let baseSigma = toe ? toe.sigmaM : 0;
  let terrainRms = 0;
  if (fitted) {
    const effective = Math.max(
      3,
      Math.min(fitted.plane.samples, polygon.perimeter / Math.max(c, profile.correlationLengthM)),
    );
    terrainRms = Math.sqrt(Math.max(0, fitted.plane.residualRms ** 2 - profile.correlatedSigmaM ** 2));
    baseSigma =
      terrainRms * Math.sqrt(predictionFactor(fitted.plane, cx, cy) * (fitted.plane.samples / effective));
  }
  const datum = relative ? 0 : profile.datumSigmaM;
  // A plane fitted to the boundary takes out the tilt of a warped model; what is left is its
  // curvature over the region: the profile's, or more when the capture shows more (warp.ts).
  const warpApplied = appliedWarp(profile, {
    diagonalM: Math.hypot(polygon.maxX - polygon.minX, polygon.maxY - polygon.minY),
    fitted: relative,
    excessResidualM: terrainRms,
    ...(warpCurvaturePerM !== undefined ? { warpCurvaturePerM } : {}),
  });
  const warp = warpApplied.sigmaM;

  const volumeUncertainty = (volume: number, figureArea: number, variance: number): Uncertainty => ({
    sigmaRandom: Math.sqrt(
      cellArea * cellArea * variance +
        (figureArea * baseSigma) ** 2 +
        correlatedVolumeSigma(
          profile.correlatedSigmaM,
          profile.correlationLengthM,
          figureArea,
          area,
          relative,
        ) **
          2 +
        (voidArea * rmsDz * (figureArea / area)) ** 2 +
        (SAMPLING_GAIN * sums.roughness * cellArea) ** 2,
    ),
    sigmaSystematic: Math.hypot(
      figureArea * warp,
      figureArea * datum,
      3 * profile.scaleSigma * Math.abs(volume),
    ),
  });

  const net = sums.fill - sums.cut;
  const uncertainty: Partial<Record<VolumeField, Uncertainty>> = {
    fill: volumeUncertainty(sums.fill, fillArea, sums.varFill + sums.varAtGrade),
    cut: volumeUncertainty(sums.cut, cutArea, sums.varCut + sums.varAtGrade),
    net: volumeUncertainty(net, area, sums.varAll),
    footprint: {
      // Each cell the boundary crosses is in or out by its centre: ±c²/2, uniform.
      sigmaRandom: (cellArea / Math.sqrt(12)) * Math.sqrt(polygon.perimeter / c),
      sigmaSystematic: 2 * profile.scaleSigma * area,
    },
  };
  let tonnage: number | null = null;
  const netU = uncertainty.net as Uncertainty;
  if (material) {
    tonnage = Math.abs(net) * material.densityTPerM3;
    uncertainty.tonnage = {
      sigmaRandom: netU.sigmaRandom * material.densityTPerM3,
      sigmaSystematic: netU.sigmaSystematic * material.densityTPerM3 + material.relativeSigma * tonnage,
    };
  }

  const disclosures: string[] = [];
  if (voidCells > 0) {
    disclosures.push(
      `Region ${regionId}: ${voidArea.toFixed(1)} m² (${((voidCells / inside.total) * 100).toFixed(1)} %) holds no points and is left out of the volume; the band accounts for it.`,
    );
  }
  if (fitted && fitted.plane.outliers > 0) {
    disclosures.push(
      `Region ${regionId}: ${fitted.plane.outliers} boundary samples lay off the base plane and were ignored (objects on the boundary, or a boundary drawn across the pile).`,
    );
  }

  const warpReport = { warpAppliedM: warp, warpSource: warpApplied.source };
  const base: BaseReport | ToeBase['report'] = toe
    ? { ...toe.report, ...warpReport }
    : fitted
      ? {
          kind: 'fitted-plane',
          plane: {
            x0: fitted.plane.x0,
            y0: fitted.plane.y0,
            z0: fitted.plane.z0,
            sx: fitted.plane.sx,
            sy: fitted.plane.sy,
          },
          samples: fitted.plane.samples,
          outliers: fitted.plane.outliers,
          residualRmsM: fitted.plane.residualRms,
          boundaryCoverage: fitted.coverage,
          warpAppliedM: warp,
          warpSource: warpApplied.source,
        }
      : {
          kind: 'elevation',
          elevationM: baseSpec.kind === 'elevation' ? baseSpec.z : 0,
          warpAppliedM: warp,
          warpSource: warpApplied.source,
        };
  if (warpApplied.source !== 'profile') {
    disclosures.push(
      `Region ${regionId}: the model is warped more than its accuracy profile assumes (${warpApplied.source === 'measured-dome' ? 'a dome measured on the photos’ positions' : 'the base fit’s residual'}: ${warp.toFixed(2)} m against ${profile.warpSigmaM} m); the band is widened for it. Fly a second, oblique or cross-hatched pass, or add ground control, to remove it.`,
    );
  }

  return {
    cut: sums.cut,
    fill: sums.fill,
    net,
    footprint: area,
    tonnage,
    uncertainty,
    coverage: {
      measuredFraction: inside.measured / inside.total,
      interpolatedFraction: inside.interpolated / inside.total,
      voidFraction: voidCells / inside.total,
    },
    base,
    disclosures,
  };
}
