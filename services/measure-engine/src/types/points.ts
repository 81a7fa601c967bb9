// Bytes and points: how the engine reads a point cloud file, before any measuring.
// Part of the engine's types (see ../types.ts). Canonical SI: metres, square metres, cubic metres, tonnes;
// units are UCUM codes ('m', 'm2', 'm3', 't').

/** A file the engine can read more than once, chunk by chunk, without holding it whole. */
export interface ByteSource {
  /** Shown in error sentences ("survey.las"), never a path with secrets in it. */
  readonly name: string;
  /** Total size in bytes when known up front; lets a reader detect truncation before reading. */
  readonly size?: number;
  /** A fresh stream of the bytes from the start; each call starts over. */
  open(): AsyncIterable<Uint8Array>;
  /**
   * A stream from byte `offset` on, for sources that can seek (a LAZ file's chunk table lies at
   * its end). Without it, readers stream from the start and drop the bytes before the offset.
   */
  openAt?(offset: number): AsyncIterable<Uint8Array>;
}

export type PointFormat = 'ply' | 'las';

/** A horizontal or vertical unit of the file's coordinates, converted to metres on read. */
export interface LinearUnit {
  readonly name: 'metre' | 'foot' | 'us-survey-foot' | 'unknown';
  /** Metres per unit of the file. 1 for metre and for unknown (the engine assumes metres). */
  readonly metres: number;
}

/**
 * How positions stated in WGS 84 relate to the CRS's own datum. `wgs84`: the CRS is on WGS 84.
 * `taken-as-wgs84`: the definition carries no transformation (NAD83, ETRS89 …), so a WGS 84
 * position is placed as if it were on the CRS's datum; `offsetUpToM` says how far apart the two
 * are, where that is known. `transformed`: the definition's Helmert parameters are applied.
 */
export interface DatumStatement {
  readonly name: string;
  readonly rule: 'wgs84' | 'taken-as-wgs84' | 'transformed';
  /** Horizontal size (m) of the assumption or of the transformation's error, when known. */
  readonly offsetUpToM?: number;
  /** The rule in a sentence, for the snapshot's disclosures. */
  readonly statement: string;
}

/** A point cloud's projected coordinate system, resolved from what the file states. */
export interface CoordinateSystem {
  /** The CRS's name as its definition gives it ("NAD83 / California zone 3 (ftUS)"). */
  readonly name: string;
  readonly epsg?: number;
  /** The OGC WKT the file carried, when it stated its CRS that way. */
  readonly wkt?: string;
  /** What it was resolved from: GeoKeys naming an EPSG code, GeoKeys giving parameters, a WKT record. */
  readonly source: 'geokeys-epsg' | 'geokeys-parameters' | 'wkt';
  /** The definition proj4 projects with: a PROJ string or an OGC WKT 1 projected CRS. */
  readonly definition: string;
  readonly datum: DatumStatement;
  /** False when the file states no vertical unit and the horizontal one was taken for heights. */
  readonly verticalUnitStated: boolean;
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
  /** Coordinate reference system found in the file (LAS GeoKeys or WKT) and resolved, when any. */
  readonly crs?: CoordinateSystem;
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
