// The coordinate reference system recorded in a LAS file's variable-length records: GeoTIFF keys
// (LASF_Projection 34735) or OGC WKT (LASF_Projection 2112). The engine needs two things from it:
// the linear units (a US survey foot file must not be measured as if in metres) and whether the
// coordinates are geographic degrees, which cannot be measured in m³ at all.
import { EngineError } from '../errors.js';
import type { LinearUnit } from '../types.js';

export interface VariableLengthRecord {
  readonly userId: string;
  readonly recordId: number;
  readonly data: Uint8Array;
}

export interface LasCrs {
  readonly epsg?: number;
  readonly wkt?: string;
  readonly horizontalUnit: LinearUnit;
  readonly verticalUnit: LinearUnit;
}

const UNKNOWN: LinearUnit = { name: 'unknown', metres: 1 };
const METRE: LinearUnit = { name: 'metre', metres: 1 };
const FOOT: LinearUnit = { name: 'foot', metres: 0.3048 };
const US_SURVEY_FOOT: LinearUnit = { name: 'us-survey-foot', metres: 1200 / 3937 };

/** EPSG unit codes used by GeoTIFF's ProjLinearUnitsGeoKey and VerticalUnitsGeoKey. */
const EPSG_UNITS: Readonly<Record<number, LinearUnit>> = { 9001: METRE, 9002: FOOT, 9003: US_SURVEY_FOOT };

const GEO_KEYS = {
  modelType: 1024,
  projectedCrs: 3072,
  linearUnits: 3076,
  verticalUnits: 4099,
} as const;
const MODEL_GEOGRAPHIC = 2;

export function crsFromRecords(records: readonly VariableLengthRecord[], file: string): LasCrs {
  const projection = records.filter((r) => r.userId === 'LASF_Projection');
  const keys = projection.find((r) => r.recordId === 34735);
  const wktRecord = projection.find((r) => r.recordId === 2112);
  if (keys) return fromGeoKeys(keys.data, file);
  if (wktRecord) return fromWkt(new TextDecoder().decode(wktRecord.data).replace(/\0+$/, ''), file);
  return { horizontalUnit: UNKNOWN, verticalUnit: UNKNOWN };
}

function geographic(file: string): never {
  throw new EngineError(
    'unsupported_format',
    `${file}: coordinates are geographic (degrees); reproject the cloud to a projected CRS in metres or feet before measuring.`,
    file,
  );
}

function fromGeoKeys(data: Uint8Array, file: string): LasCrs {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const short = (i: number) => (2 * i + 2 <= data.byteLength ? view.getUint16(2 * i, true) : 0);
  const keyCount = short(3);
  const values = new Map<number, number>();
  for (let k = 0; k < keyCount; k++) {
    const base = 4 + 4 * k;
    // Location 0 means the value is stored inline; other locations point to other records.
    if (short(base + 1) === 0) values.set(short(base), short(base + 3));
  }
  if (values.get(GEO_KEYS.modelType) === MODEL_GEOGRAPHIC) geographic(file);
  const horizontal = EPSG_UNITS[values.get(GEO_KEYS.linearUnits) ?? 0] ?? UNKNOWN;
  const vertical = EPSG_UNITS[values.get(GEO_KEYS.verticalUnits) ?? 0] ?? horizontal;
  const epsg = values.get(GEO_KEYS.projectedCrs);
  return {
    ...(epsg && epsg !== 32767 ? { epsg } : {}),
    horizontalUnit: horizontal,
    verticalUnit: vertical,
  };
}

/**
 * WKT 1 and 2 name linear units as UNIT["name", metres] (LENGTHUNIT in WKT 2). The first linear
 * unit belongs to the projected CRS; in a compound CRS the last belongs to the vertical CRS.
 */
function fromWkt(wkt: string, file: string): LasCrs {
  if (/^\s*(GEOGCS|GEOGCRS|GEODCRS)\b/i.test(wkt)) geographic(file);
  const linear = [...wkt.matchAll(/(?:LENGTH)?UNIT\s*\[\s*"([^"]*)"\s*,\s*([0-9.eE+-]+)/g)]
    .filter((m) => !/degree|radian|grad|arc|second/i.test(m[1] ?? ''))
    .map((m) => unitFromFactor(Number(m[2])));
  const horizontal = linear[0] ?? UNKNOWN;
  return {
    wkt,
    horizontalUnit: horizontal,
    verticalUnit: linear.length > 1 ? (linear.at(-1) ?? horizontal) : horizontal,
  };
}

function unitFromFactor(metres: number): LinearUnit {
  if (!Number.isFinite(metres) || metres <= 0) return UNKNOWN;
  if (Math.abs(metres - 1) < 1e-9) return METRE;
  if (Math.abs(metres - US_SURVEY_FOOT.metres) < 1e-9) return US_SURVEY_FOOT;
  if (Math.abs(metres - FOOT.metres) < 1e-9) return FOOT;
  return { name: 'unknown', metres };
}
