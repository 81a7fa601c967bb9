// Bands and quantities (the spec's "Measured quantities and tolerance bands"): the engine's output.
// Part of the engine's types (see ../types.ts). Canonical SI: metres, square metres, cubic metres, tonnes;
// units are UCUM codes ('m', 'm2', 'm3', 't').

import type { ControlKind, PositionSource, SensorKind } from './capture-accuracy.ts';
import type { CoordinateSystem, LinearUnit, PointFormat } from './points.ts';
import type { BaseSpec, CellStatistic, XY } from './regions.ts';

export type QuantityUnit = 'm' | 'm2' | 'm3' | 't';

/**
 * A tolerance band, part of the number it qualifies (spec rules 1–3).
 * `relativeFraction` is a fraction (0.1 = ±10 %), never a percentage. `plusMinus` is the same band
 * in the figure's unit. For a figure of exactly zero the fraction is undefined; the engine then
 * reports relativeFraction 1 and the absolute width in plusMinus (see docs/measurements.md).
 */
export interface Band {
  readonly unit: QuantityUnit;
  readonly relativeFraction: number;
  readonly plusMinus: number;
  /** Coverage probability of the band (0.95). */
  readonly confidence: number;
}

/**
 * One-sigma uncertainty split by how it correlates. Random parts of different figures add in
 * quadrature; systematic parts of figures from the same capture add linearly (the same scale or
 * warp error moves them all), and in quadrature across captures.
 */
export interface Uncertainty {
  readonly sigmaRandom: number;
  readonly sigmaSystematic: number;
}

export const VOLUME_FIELDS = ['cut', 'fill', 'net', 'footprint', 'tonnage'] as const;
export type VolumeField = (typeof VOLUME_FIELDS)[number];

export const FIELD_UNITS: Record<VolumeField, QuantityUnit> = {
  cut: 'm3',
  fill: 'm3',
  net: 'm3',
  footprint: 'm2',
  tonnage: 't',
};

/** Figures of one region or of the rollup: numbers plus a `bands` map keyed by field (spec rule 2). */
export interface VolumeFigures {
  /** Volume below the base, reported positive. */
  readonly cut: number;
  /** Volume above the base. */
  readonly fill: number;
  /** fill − cut. */
  readonly net: number;
  /** 2D area of the covered cells inside the polygon. */
  readonly footprint: number;
  /** |net| × bulk density; null when no material or density was given (nothing to report). */
  readonly tonnage: number | null;
  readonly units: Record<VolumeField, QuantityUnit>;
  readonly bands: Partial<Record<VolumeField, Band>>;
  /** The sigmas behind the bands, kept so rollups and deltas combine them correctly. */
  readonly uncertainty: Partial<Record<VolumeField, Uncertainty>>;
}

export interface RegionCoverage {
  /** Share of the polygon's cells holding at least one point. */
  readonly measuredFraction: number;
  /** Share filled by interpolation from neighbouring cells. */
  readonly interpolatedFraction: number;
  /** Share still empty: excluded from the volume and accounted for in the band. */
  readonly voidFraction: number;
}

export interface BaseReport {
  readonly kind: BaseSpec['kind'];
  /** The plane z = z0 + sx·(x − x0) + sy·(y − y0), in metres, for 'fitted-plane'. */
  readonly plane?: {
    readonly x0: number;
    readonly y0: number;
    readonly z0: number;
    readonly sx: number;
    readonly sy: number;
  };
  /** Boundary samples used and rejected as outliers, and the RMS of the fit residuals (m). */
  readonly samples?: number;
  readonly outliers?: number;
  readonly residualRmsM?: number;
  /** Share of the boundary length where the captured surface could be sampled. */
  readonly boundaryCoverage?: number;
  readonly elevationM?: number;
  /**
   * The low-frequency deformation (m, one sigma) the band carries for this region, and where it
   * comes from: the profile's warp scaled to the region ('profile'), the base fit's residual beyond
   * the capture's noise ('base-residual'), or a measured dome (`warpCurvaturePerM`,
   * 'measured-dome'), whichever is largest.
   */
  readonly warpAppliedM?: number;
  readonly warpSource?: WarpSource;
}

export type WarpSource = 'profile' | 'base-residual' | 'measured-dome';

export interface RegionQuantities extends VolumeFigures {
  readonly regionId: string;
  readonly name?: string;
  readonly material?: string;
  readonly densityTPerM3?: number;
  /** Area of the polygon as drawn; exact for the vertices given, so it carries no band. */
  readonly polygonArea: number;
  /** The polygon measured, in metres of the capture's plan frame, without the closing repeat. */
  readonly outline: readonly XY[];
  readonly coverage: RegionCoverage;
  readonly base: BaseReport;
}

export interface SurfaceReport {
  readonly cellSizeM: number;
  readonly statistic: CellStatistic;
  readonly columns: number;
  readonly rows: number;
  /** Points per m² over the cells that hold points. */
  readonly pointDensityPerM2: number;
  readonly cellSizeChosenFromDensity: boolean;
  /** Grid-wide share of cells that are still empty after the void fill. */
  readonly voidFraction: number;
}

export interface CaptureReport {
  readonly format: PointFormat;
  readonly variant: string;
  readonly declaredCount: number;
  readonly pointsRead: number;
  /** Points inside the measured extent (the regions' bounding box with a margin). */
  readonly pointsUsed: number;
  readonly skippedNonFinite: number;
  readonly crs?: CoordinateSystem;
  readonly horizontalUnit: LinearUnit;
  readonly verticalUnit: LinearUnit;
}

export interface ErrorModelReport {
  readonly confidence: number;
  /** Coverage factor k of the band: plusMinus = k · sigma. */
  readonly coverageFactor: number;
  /** The accuracy profile applied, with the numbers taken from it. */
  readonly profile: AccuracyProfile;
}

/** The quantities of the site snapshot (spec resource Quantities). */
export interface SiteQuantities {
  readonly regions: readonly RegionQuantities[];
  readonly rollup: VolumeFigures;
  /** A tally: no band (spec rule 4). */
  readonly regionCount: number;
  readonly surface: SurfaceReport;
  readonly capture: CaptureReport;
  readonly errorModel: ErrorModelReport;
  /** Sentences a reader of the figures must see (voids, units assumed, noisy cut/fill). */
  readonly disclosures: readonly string[];
}

/** The accuracy figures of one kind of capture (quantities/accuracy-profiles.ts). */
export interface AccuracyProfile {
  /** Which table row was used, e.g. 'photogrammetry/gps', 'lidar/gcp'. */
  readonly name: string;
  readonly sensor: SensorKind;
  readonly control: ControlKind;
  /** Photogrammetry: the position source the profile was chosen by, when one was declared. */
  readonly positionSource?: PositionSource;
  /** The alignment residual the scale error was derived from, when one was given. */
  readonly alignmentRmseM?: number;
  /** Noise of one point (m), the floor of a cell's spread. */
  readonly pointSigmaM: number;
  /** Spatially correlated vertical error (m) and its correlation length (m). */
  readonly correlatedSigmaM: number;
  readonly correlationLengthM: number;
  /** Low-frequency vertical deformation a boundary-fitted base does not remove (m). */
  readonly warpSigmaM: number;
  /** Absolute vertical datum error (m): matters only against a fixed elevation. */
  readonly datumSigmaM: number;
  /** Relative scale error of the model (dimensionless). */
  readonly scaleSigma: number;
  readonly source: string;
}
