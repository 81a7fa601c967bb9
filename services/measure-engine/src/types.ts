// The engine's input and output types, shared by the built-in engine (3D points in, quantities
// out), the measurements service that stores the results, and the capture workers that call the
// engine on the files a capture uploaded. Everything is in canonical SI: metres, square metres, cubic metres,
// tonnes; units are written as UCUM codes ('m', 'm2', 'm3', 't').

// ---------------------------------------------------------------------------------------------
// Bytes and points
// ---------------------------------------------------------------------------------------------

/** A file the engine can read more than once, chunk by chunk, without holding it whole. */
export interface ByteSource {
  /** Shown in error sentences ("survey.las"), never a path with secrets in it. */
  readonly name: string;
  /** Total size in bytes when known up front; lets a reader detect truncation before reading. */
  readonly size?: number;
  /** A fresh stream of the bytes from the start; each call starts over. */
  open(): AsyncIterable<Uint8Array>;
}

export type PointFormat = 'ply' | 'las';

/** A horizontal or vertical unit of the file's coordinates, converted to metres on read. */
export interface LinearUnit {
  readonly name: 'metre' | 'foot' | 'us-survey-foot' | 'unknown';
  /** Metres per unit of the file. 1 for metre and for unknown (the engine assumes metres). */
  readonly metres: number;
}

export interface Bounds3 {
  readonly minX: number;
  readonly minY: number;
  readonly minZ: number;
  readonly maxX: number;
  readonly maxY: number;
  readonly maxZ: number;
}

/** What a reader knows about a cloud before reading its points. */
export interface PointCloudHeader {
  readonly format: PointFormat;
  /** 'ascii' | 'binary_little_endian' | 'binary_big_endian' for PLY; '1.2', '1.4' … for LAS. */
  readonly variant: string;
  /** Number of points the file declares. */
  readonly declaredCount: number;
  /** Bounds stated by the file (LAS header), in file units; PLY files state none. */
  readonly bounds?: Bounds3;
  readonly hasColor: boolean;
  /** LAS point data record format (0–10); absent for PLY. */
  readonly pointRecordFormat?: number;
  /** Coordinate reference system found in the file (LAS GeoKeys or WKT), when any. */
  readonly crs?: { readonly epsg?: number; readonly wkt?: string };
  readonly horizontalUnit: LinearUnit;
  readonly verticalUnit: LinearUnit;
}

/**
 * A batch of points in file units. Readers hand out batches of at most POINT_CHUNK_SIZE points
 * so a 10-million-point file never sits in memory twice.
 */
export interface PointChunk {
  readonly count: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly z: Float64Array;
  /** 8-bit red, green, blue interleaved (3 × count), when the file carries colour. */
  readonly rgb?: Uint8Array;
}

export interface PointReader {
  readonly header: PointCloudHeader;
  /** Streams the points. Points with a non-finite coordinate are skipped and counted. */
  points(): AsyncIterable<PointChunk>;
  /** Points skipped so far because a coordinate was NaN or infinite. */
  readonly skippedNonFinite: number;
}

// ---------------------------------------------------------------------------------------------
// How the capture was made (drives the error model)
// ---------------------------------------------------------------------------------------------

/** Lidar ranges each point; photogrammetry matches images, so its errors are larger and correlated. */
export type SensorKind = 'lidar' | 'photogrammetry';

/** How the capture was tied to the ground. 'gcp': surveyed ground control points in the solution. */
export type ControlKind = 'gcp' | 'rtk' | 'ppk' | 'none';

/**
 * Where the positions that georeference a photogrammetric model come from: consumer GNSS in the
 * photos' EXIF ('gps', metres of error), corrected GNSS ('rtk', 'ppk', centimetres), or surveyed
 * ground control points ('control').
 */
export type PositionSource = 'gps' | 'rtk' | 'ppk' | 'control';

/**
 * How a capture was made, as far as it bears on the error of what is measured on it. `sensor` and
 * `control` come from the capture (hasLidar, control); the rest is optional evidence that narrows
 * or widens the defaults of accuracy-profiles.ts. docs/measurements.md gives the formula.
 */
export interface CaptureAccuracy {
  readonly sensor: SensorKind;
  readonly control: ControlKind;
  /** Ground sample distance of the images (photogrammetry), metres per pixel. */
  readonly gsdM?: number;
  /** Vertical RMSE measured at independent check points, when the surveyor has one. */
  readonly checkpointRmseZM?: number;
  /** One-sigma noise of a single point, when the operator knows it better than the defaults. */
  readonly pointSigmaM?: number;
  /** Photogrammetry: what georeferenced the model. Selects the profile when `control` is 'none'. */
  readonly positionSource?: PositionSource;
  /**
   * Photogrammetry: RMS residual (m, 3D) of the similarity transform that aligned the model to its
   * reference positions (camera centres or control points), as the aligner reports it.
   */
  readonly alignmentRmseM?: number;
  /** RMS distance (m) of those reference positions from their centroid: the lever arm of the scale. */
  readonly alignmentSpanM?: number;
  /** How many reference positions the alignment used. */
  readonly alignmentPoints?: number;
}

// ---------------------------------------------------------------------------------------------
// Regions and what is measured in them
// ---------------------------------------------------------------------------------------------

/** [x, y] in the same coordinate reference system (and units) as the point cloud. */
export type XY = readonly [number, number];

/**
 * The surface a region is measured against.
 * - 'fitted-plane': a plane fitted by robust least squares to the captured surface sampled along
 *   the region's boundary (a stockpile on its pad, a pit in its surroundings). Default.
 * - 'elevation': a fixed level (design grade, a datum), in the file's vertical units.
 */
export type BaseSpec = { readonly kind: 'fitted-plane' } | { readonly kind: 'elevation'; readonly z: number };

export interface RegionInput {
  readonly id: string;
  readonly name?: string;
  /** Simple polygon, open or closed, either orientation, at most MAX_REGION_VERTICES vertices. */
  readonly polygon: readonly XY[];
  /** Key of the material table; tonnage is reported when a material or a density is given. */
  readonly material?: string;
  /** Bulk density in t/m³ measured by the operator; overrides the material table. */
  readonly densityTPerM3?: number;
  readonly base?: BaseSpec;
}

/** The per-cell statistic of the gridded surface. */
export type CellStatistic = 'mean' | 'min' | 'max';

export interface MeasureInput {
  readonly source: ByteSource;
  readonly regions: readonly RegionInput[];
  readonly accuracy: CaptureAccuracy;
  /** Grid cell size in metres; chosen from point density when absent. */
  readonly cellSizeM?: number;
  /** Default 'mean'; 'min' approximates bare ground in unclassified clouds. */
  readonly statistic?: CellStatistic;
  /** Overrides of the units found in (or missing from) the file. */
  readonly units?: { readonly horizontal?: LinearUnit; readonly vertical?: LinearUnit };
  readonly signal?: AbortSignal;
}

// ---------------------------------------------------------------------------------------------
// Bands and quantities (the spec's "Measured quantities and tolerance bands")
// ---------------------------------------------------------------------------------------------

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
}

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
  readonly crs?: { readonly epsg?: number; readonly wkt?: string };
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

// ---------------------------------------------------------------------------------------------
// Takeoffs (spec resource Takeoff) and deltas
// ---------------------------------------------------------------------------------------------

/** Where a takeoff quantity comes from: measured on a capture, or drawn/entered by a person. */
export type Provenance = 'captured' | 'drawn';

export interface TakeoffLine {
  /** Stable key of the line across revisions (e.g. "stockpile-a:net"); deltas match on it. */
  readonly key: string;
  readonly description: string;
  readonly costCode: string;
  readonly quantity: number;
  readonly unit: QuantityUnit;
  /** null where no honest tolerance exists (spec rule 5); never a zero band. */
  readonly band: Band | null;
  readonly uncertainty: Uncertainty | null;
  readonly provenance: Provenance;
  /** The capture a captured line was measured on; systematic errors correlate within it. */
  readonly captureId?: string;
  readonly regionId?: string;
  readonly field?: VolumeField;
}

export interface ProvenanceMix {
  readonly captured: number;
  readonly drawn: number;
}

export interface TakeoffTotal {
  readonly costCode: string;
  readonly unit: QuantityUnit;
  readonly quantity: number;
  /** null when any line in the total has no band: a total is no better known than its parts. */
  readonly band: Band | null;
  readonly uncertainty: Uncertainty | null;
  readonly provenance: ProvenanceMix;
  /** true when the total spans captured and drawn quantities (spec rule 6). */
  readonly mixed: boolean;
  readonly lineCount: number;
}

export interface TakeoffDocument {
  readonly lines: readonly TakeoffLine[];
  readonly rollup: readonly TakeoffTotal[];
  readonly provenance: ProvenanceMix;
  readonly mixed: boolean;
  readonly scope: string;
  readonly assumptions: readonly string[];
  readonly disclosures: readonly string[];
}

/** Where a change lies against the band of the difference. 'within': not distinguishable from error. */
export type BandSide = 'above' | 'below' | 'within' | 'unknown';

export interface FigureChange {
  readonly from: number;
  readonly to: number;
  readonly difference: number;
  readonly unit: QuantityUnit;
  /** Band of the difference: both figures' sigmas combined in quadrature; null if either has none. */
  readonly band: Band | null;
  readonly side: BandSide;
}

export interface LineChange extends FigureChange {
  readonly key: string;
  readonly description: string;
  readonly costCode: string;
}

export interface TakeoffDelta {
  readonly added: readonly TakeoffLine[];
  readonly removed: readonly TakeoffLine[];
  readonly changed: readonly LineChange[];
  readonly unchanged: number;
  readonly rollup: readonly (FigureChange & { readonly costCode: string })[];
}
