// The coordinate reference system recorded in a LAS file's variable-length records: GeoTIFF keys
// (LASF_Projection 34735, with their doubles in 34736 and text in 34737) or OGC WKT
// (LASF_Projection 2112). It is resolved to a definition proj4 projects with: an EPSG code through
// the EPSG dataset (epsg-index), user-defined projection parameters into a PROJ string, a WKT
// record through proj4's own WKT parser. The units come from that definition (a file naming
// EPSG:2227 alone is in US survey feet), never assumed when the file says otherwise; a CRS that
// cannot be resolved, or whose unit the engine does not convert, is refused with its name.
import proj4 from 'proj4';
import { datumStatement } from '../crs/datum.ts';
import { epsgDefinition } from '../crs/epsg-definitions.ts';
import { child, descendant, nameOf, parseWkt, textOf, type WktNode } from '../crs/wkt-tree.ts';
import { EngineError } from '../errors.ts';
import type { CoordinateSystem, LinearUnit } from '../types.ts';

export interface VariableLengthRecord {
  readonly userId: string;
  readonly recordId: number;
  readonly data: Uint8Array;
}

export interface LasCrs {
  readonly crs?: CoordinateSystem;
  readonly horizontalUnit: LinearUnit;
  readonly verticalUnit: LinearUnit;
}

const UNKNOWN: LinearUnit = { name: 'unknown', metres: 1 };
const METRE: LinearUnit = { name: 'metre', metres: 1 };
const FOOT: LinearUnit = { name: 'foot', metres: 0.3048 };
const US_SURVEY_FOOT: LinearUnit = { name: 'us-survey-foot', metres: 1200 / 3937 };

/** EPSG unit codes used by GeoTIFF's ProjLinearUnitsGeoKey and VerticalUnitsGeoKey. */
const EPSG_UNITS: Readonly<Record<number, LinearUnit>> = { 9001: METRE, 9002: FOOT, 9003: US_SURVEY_FOOT };

const KEY = {
  modelType: 1024,
  citation: 1026,
  geographicType: 2048,
  geographicCitation: 2049,
  geodeticDatum: 2050,
  angularUnits: 2054,
  semiMajor: 2057,
  semiMinor: 2058,
  invFlattening: 2059,
  projectedCrs: 3072,
  projectedCitation: 3073,
  projection: 3074,
  coordTransform: 3075,
  linearUnits: 3076,
  stdParallel1: 3078,
  stdParallel2: 3079,
  natOriginLong: 3080,
  natOriginLat: 3081,
  falseEasting: 3082,
  falseNorthing: 3083,
  falseOriginLong: 3084,
  falseOriginLat: 3085,
  falseOriginEasting: 3086,
  falseOriginNorthing: 3087,
  centerLong: 3088,
  centerLat: 3089,
  scaleAtNatOrigin: 3092,
  scaleAtCenter: 3093,
  verticalCrs: 4096,
  verticalUnits: 4099,
} as const;
const MODEL_GEOGRAPHIC = 2;
const MODEL_GEOCENTRIC = 3;
const USER_DEFINED = 32767;
const DEGREE = 9102;

/** What proj4 makes of a definition (the fields the engine reads). */
interface ParsedProjection {
  projName?: string;
  units?: string;
  to_meter?: number;
  datum?: { datum_type?: number; datum_params?: number[] };
  datumCode?: string;
}

/**
 * The file's CRS. A LAS 1.4 file whose global encoding sets the WKT bit is read from its WKT record
 * (the specification says its GeoTIFF keys are then not to be used); otherwise GeoTIFF keys come
 * first and a WKT record is read when there are none.
 */
export function crsFromRecords(
  records: readonly VariableLengthRecord[],
  file: string,
  wktFlag = false,
  at: Date = new Date(),
): LasCrs {
  const projection = records.filter((r) => r.userId === 'LASF_Projection');
  const keys = projection.find((r) => r.recordId === 34735);
  const wktRecord = projection.find((r) => r.recordId === 2112);
  if (wktFlag && wktRecord) {
    return fromWkt(new TextDecoder().decode(wktRecord.data).replace(/\0+$/, ''), file, at);
  }
  if (keys) {
    const doubles = projection.find((r) => r.recordId === 34736)?.data;
    const ascii = projection.find((r) => r.recordId === 34737)?.data;
    return fromGeoKeys(readGeoKeys(keys.data, doubles, ascii), file, at);
  }
  if (wktRecord) return fromWkt(new TextDecoder().decode(wktRecord.data).replace(/\0+$/, ''), file, at);
  return { horizontalUnit: UNKNOWN, verticalUnit: UNKNOWN };
}

function geographic(file: string): never {
  throw new EngineError(
    'unsupported_format',
    `${file}: coordinates are geographic (degrees); reproject the cloud to a projected CRS in metres or feet before measuring.`,
    file,
  );
}

function unresolvable(file: string, what: string, why: string): never {
  throw new EngineError(
    'unsupported_format',
    `${file} states its coordinates are in ${what}, which ${why}; reproject the cloud to a projected CRS the platform resolves (for example its UTM zone on WGS 84, in metres) before uploading, so no figure is published in a unit or place the file does not mean.`,
    file,
  );
}

function unitOfFactor(metres: number | undefined): LinearUnit | null {
  if (metres === undefined || !Number.isFinite(metres)) return null;
  if (Math.abs(metres - 1) < 1e-12) return METRE;
  if (Math.abs(metres / US_SURVEY_FOOT.metres - 1) < 1e-9) return US_SURVEY_FOOT;
  if (Math.abs(metres / FOOT.metres - 1) < 1e-9) return FOOT;
  return null;
}

function parse(definition: string): ParsedProjection | null {
  try {
    return proj4.Proj(definition) as unknown as ParsedProjection;
  } catch {
    return null;
  }
}

/** The linear unit proj4 found in a definition: to_meter, or 'm' for PROJ strings in metres. */
function unitOf(parsed: ParsedProjection): LinearUnit | null {
  if (parsed.to_meter !== undefined) return unitOfFactor(parsed.to_meter);
  return parsed.units === undefined || parsed.units === 'm' || parsed.units === 'meter' ? METRE : null;
}

/** The datum grid a PROJ string names (+nadgrids=…), in words. */
function gridOf(definition: string): string {
  const grid = definition
    .split(/\s+/)
    .find((p) => p.startsWith('+nadgrids='))
    ?.slice('+nadgrids='.length);
  return grid ? `the datum grid ${grid}` : 'a datum grid';
}

interface GeoKeys {
  readonly shorts: Map<number, number>;
  readonly doubles: Map<number, number>;
  readonly texts: Map<number, string>;
}

function readGeoKeys(data: Uint8Array, doubles?: Uint8Array, ascii?: Uint8Array): GeoKeys {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const short = (i: number) => (2 * i + 2 <= data.byteLength ? view.getUint16(2 * i, true) : 0);
  const doubleView = doubles ? new DataView(doubles.buffer, doubles.byteOffset, doubles.byteLength) : null;
  const text = ascii ? new TextDecoder('latin1').decode(ascii) : '';
  const keys: GeoKeys = { shorts: new Map(), doubles: new Map(), texts: new Map() };
  const keyCount = short(3);
  for (let k = 0; k < keyCount; k++) {
    const base = 4 + 4 * k;
    const [id, location, count, value] = [short(base), short(base + 1), short(base + 2), short(base + 3)];
    if (location === 0) keys.shorts.set(id, value);
    else if (location === 34736 && doubleView && 8 * (value + 1) <= doubleView.byteLength)
      keys.doubles.set(id, doubleView.getFloat64(8 * value, true));
    else if (location === 34737 && text)
      keys.texts.set(id, text.slice(value, value + count).replace(/[|\0]+$/, ''));
  }
  return keys;
}

function verticalFromKeys(keys: GeoKeys, horizontal: LinearUnit, file: string): [LinearUnit, boolean] {
  const code = keys.shorts.get(KEY.verticalUnits);
  if (code !== undefined && code !== 0 && code !== USER_DEFINED) {
    const unit = EPSG_UNITS[code];
    if (!unit) unresolvable(file, `heights in the unit EPSG:${code}`, 'the engine does not convert');
    return [unit, true];
  }
  const vertical = keys.shorts.get(KEY.verticalCrs);
  if (vertical !== undefined && vertical > 0 && vertical < USER_DEFINED) {
    const definition = epsgDefinition(vertical);
    if (!definition)
      unresolvable(file, `heights in EPSG:${vertical}`, `the platform's EPSG definitions do not hold`);
    const unit = /us survey foot/i.test(definition.unit)
      ? US_SURVEY_FOOT
      : /^foot/i.test(definition.unit)
        ? FOOT
        : /^metre/i.test(definition.unit)
          ? METRE
          : null;
    if (!unit)
      unresolvable(file, `heights in ${definition.name} (${definition.unit})`, 'the engine does not convert');
    return [unit, true];
  }
  return [horizontal, false];
}

function fromGeoKeys(keys: GeoKeys, file: string, at: Date): LasCrs {
  const model = keys.shorts.get(KEY.modelType);
  if (model === MODEL_GEOGRAPHIC) geographic(file);
  if (model === MODEL_GEOCENTRIC)
    unresolvable(file, 'earth-centred (geocentric) coordinates', 'have no horizontal plane to measure on');
  const pcs = keys.shorts.get(KEY.projectedCrs);
  const explicitCode = keys.shorts.get(KEY.linearUnits);
  const explicit = explicitCode !== undefined ? EPSG_UNITS[explicitCode] : undefined;
  if (explicitCode !== undefined && explicitCode !== USER_DEFINED && !explicit)
    unresolvable(file, `the linear unit EPSG:${explicitCode}`, 'the engine does not convert to metres');
  const citation = keys.texts.get(KEY.projectedCitation) ?? keys.texts.get(KEY.citation);

  let resolved: {
    name: string;
    epsg?: number;
    definition: string;
    unit: LinearUnit;
    geographicName: string;
    datumName?: string;
    accuracy: number | null;
    source: CoordinateSystem['source'];
  };
  if (pcs !== undefined && pcs > 0 && pcs < USER_DEFINED) {
    const definition = epsgDefinition(pcs);
    if (!definition)
      unresolvable(
        file,
        `EPSG:${pcs}${citation ? ` (${citation})` : ''}`,
        `the platform's EPSG definitions do not hold`,
      );
    if (definition.kind === 'CRS-GEOGCRS') geographic(file);
    if (definition.kind !== 'CRS-PROJCRS')
      unresolvable(file, `EPSG:${pcs} (${definition.name})`, 'is not a projected coordinate system');
    const parsed = parse(definition.proj4);
    if (!parsed) unresolvable(file, `EPSG:${pcs} (${definition.name})`, 'proj4 cannot project');
    const unit = unitOf(parsed);
    if (!unit)
      unresolvable(
        file,
        `EPSG:${pcs} (${definition.name}, in ${definition.unit})`,
        'is in a unit the engine does not convert',
      );
    const tree = definition.wkt ? parseWkt(definition.wkt) : null;
    const geogcs = child(tree ?? undefined, 'GEOGCS');
    resolved = {
      name: definition.name,
      epsg: pcs,
      definition: definition.proj4,
      unit,
      geographicName: nameOf(geogcs) ?? definition.name,
      ...(nameOf(child(geogcs, 'DATUM')) ? { datumName: nameOf(child(geogcs, 'DATUM')) as string } : {}),
      accuracy: definition.accuracy,
      source: 'geokeys-epsg',
    };
  } else if (pcs === USER_DEFINED || keys.shorts.has(KEY.coordTransform) || keys.shorts.has(KEY.projection)) {
    resolved = { ...userDefined(keys, explicit, file, citation), source: 'geokeys-parameters' };
  } else {
    // No projected CRS named: a file that states only its unit is measured in that unit.
    const unit = explicit ?? UNKNOWN;
    const [vertical] = verticalFromKeys(keys, unit, file);
    return { horizontalUnit: unit, verticalUnit: vertical };
  }
  if (explicit && explicit.metres !== resolved.unit.metres) {
    throw new EngineError(
      'malformed',
      `${file} names ${resolved.epsg ? `EPSG:${resolved.epsg} ` : ''}${resolved.name}, in ${resolved.unit.name}, but its linear-unit key says ${explicit.name}; the file contradicts itself, so no unit can be trusted. Write the cloud again with one CRS.`,
      file,
    );
  }
  const parsed = parse(resolved.definition) as ParsedProjection;
  const datum = datumStatement(
    {
      geographicName: resolved.geographicName,
      ...(resolved.datumName ? { datumName: resolved.datumName } : {}),
      ...(parsed.datum?.datum_type !== undefined ? { datumType: parsed.datum.datum_type } : {}),
      ...(parsed.datum?.datum_params ? { datumParams: parsed.datum.datum_params } : {}),
      accuracyM: resolved.accuracy,
    },
    at,
  );
  if (datum === 'grid') {
    unresolvable(
      file,
      `${resolved.name}${resolved.epsg ? ` (EPSG:${resolved.epsg})` : ''}`,
      `needs ${gridOf(resolved.definition)}, which the platform does not hold`,
    );
  }
  const [vertical, stated] = verticalFromKeys(keys, resolved.unit, file);
  return {
    crs: {
      name: resolved.name,
      ...(resolved.epsg ? { epsg: resolved.epsg } : {}),
      source: resolved.source,
      definition: resolved.definition,
      datum,
      verticalUnitStated: stated,
    },
    horizontalUnit: resolved.unit,
    verticalUnit: vertical,
  };
}

/** A projection given by its parameters (GeoTIFF ProjCoordTransGeoKey and the Proj…GeoKeys) as a PROJ string. */
function userDefined(
  keys: GeoKeys,
  explicit: LinearUnit | undefined,
  file: string,
  citation: string | undefined,
): { name: string; definition: string; unit: LinearUnit; geographicName: string; accuracy: number | null } {
  const label = citation ? `the user-defined projection "${citation}"` : 'a user-defined projection';
  if (!explicit) unresolvable(file, label, 'states no linear unit');
  const angular = keys.shorts.get(KEY.angularUnits);
  if (angular !== undefined && angular !== DEGREE && angular !== USER_DEFINED)
    unresolvable(file, label, `gives its angles in EPSG unit ${angular}, not degrees`);
  const { name: geographicName, ellipsoid, accuracy } = userGeographic(keys, file, label);
  const d = (...ids: number[]): number | undefined =>
    ids.map((id) => keys.doubles.get(id)).find((v) => v !== undefined);
  const need = (what: string, ...ids: number[]): number => {
    const v = d(...ids);
    if (v === undefined) unresolvable(file, label, `lacks its ${what}`);
    return v;
  };
  const m = explicit.metres;
  const falseEN = (e: number[], n: number[]) => `+x_0=${(d(...e) ?? 0) * m} +y_0=${(d(...n) ?? 0) * m}`;
  const transform = keys.shorts.get(KEY.coordTransform);
  const projection = keys.shorts.get(KEY.projection);
  let proj: string;
  if (
    projection !== undefined &&
    ((projection > 16000 && projection <= 16060) || (projection > 16100 && projection <= 16160))
  ) {
    proj = `+proj=utm +zone=${projection % 100}${projection > 16100 ? ' +south' : ''}`;
  } else if (transform === 1) {
    proj = `+proj=tmerc +lat_0=${d(KEY.natOriginLat, KEY.centerLat) ?? 0} +lon_0=${need('central meridian', KEY.natOriginLong, KEY.centerLong)} +k_0=${d(KEY.scaleAtNatOrigin, KEY.scaleAtCenter) ?? 1} ${falseEN([KEY.falseEasting], [KEY.falseNorthing])}`;
  } else if (transform === 8) {
    proj = `+proj=lcc +lat_1=${need('first standard parallel', KEY.stdParallel1)} +lat_2=${need('second standard parallel', KEY.stdParallel2)} +lat_0=${d(KEY.falseOriginLat, KEY.natOriginLat) ?? 0} +lon_0=${need('central meridian', KEY.falseOriginLong, KEY.natOriginLong)} ${falseEN([KEY.falseOriginEasting, KEY.falseEasting], [KEY.falseOriginNorthing, KEY.falseNorthing])}`;
  } else if (transform === 9) {
    const lat0 = need('latitude of origin', KEY.natOriginLat);
    proj = `+proj=lcc +lat_1=${lat0} +lat_0=${lat0} +lon_0=${need('central meridian', KEY.natOriginLong)} +k_0=${d(KEY.scaleAtNatOrigin) ?? 1} ${falseEN([KEY.falseEasting], [KEY.falseNorthing])}`;
  } else if (transform === 11) {
    proj = `+proj=aea +lat_1=${need('first standard parallel', KEY.stdParallel1)} +lat_2=${need('second standard parallel', KEY.stdParallel2)} +lat_0=${d(KEY.falseOriginLat, KEY.natOriginLat) ?? 0} +lon_0=${need('central meridian', KEY.falseOriginLong, KEY.natOriginLong)} ${falseEN([KEY.falseOriginEasting, KEY.falseEasting], [KEY.falseOriginNorthing, KEY.falseNorthing])}`;
  } else {
    unresolvable(
      file,
      label,
      `uses a projection method (GeoTIFF code ${transform ?? 'none'}) the engine does not place`,
    );
  }
  const units = explicit === METRE ? 'm' : explicit === FOOT ? 'ft' : 'us-ft';
  return {
    name: citation ?? `user-defined ${proj.split(/\s+/)[0]!.slice(6)} on ${geographicName}`,
    definition: `${proj} ${ellipsoid} +units=${units} +no_defs`,
    unit: explicit,
    geographicName,
    accuracy,
  };
}

/**
 * The geographic CRS under a user-defined projection: its EPSG code (GeographicTypeGeoKey), or,
 * when that is user-defined too (as in the Autzen lidar), the geodetic datum code, whose classic
 * EPSG geographic CRS is the datum's code less 2000 (datum 6152 is NAD83(HARN), CRS 4152) and is
 * taken only when that CRS's own WKT names the datum. An ellipsoid given as numbers (semi-major
 * axis and inverse flattening or semi-minor axis) replaces the definition's.
 */
function userGeographic(
  keys: GeoKeys,
  file: string,
  label: string,
): { name: string; ellipsoid: string; accuracy: number | null } {
  const geographicCode = keys.shorts.get(KEY.geographicType);
  let definition =
    geographicCode !== undefined && geographicCode < USER_DEFINED ? epsgDefinition(geographicCode) : null;
  const datumCode = keys.shorts.get(KEY.geodeticDatum);
  if (!definition && datumCode !== undefined && datumCode >= 6001 && datumCode <= 6999) {
    const candidate = epsgDefinition(datumCode - 2000);
    const datum = child(
      child(parseWkt(candidate?.wkt ?? '') ?? undefined, 'GEOGCS') ??
        parseWkt(candidate?.wkt ?? '') ??
        undefined,
      'DATUM',
    );
    const authority = child(datum, 'AUTHORITY');
    if (candidate?.kind === 'CRS-GEOGCRS' && Number(authority?.args[1]) === datumCode) definition = candidate;
  }
  const a = keys.doubles.get(KEY.semiMajor);
  const rf = keys.doubles.get(KEY.invFlattening);
  const b = keys.doubles.get(KEY.semiMinor);
  const numbers =
    a !== undefined && (rf !== undefined || b !== undefined)
      ? `+a=${a} ${rf !== undefined ? `+rf=${rf}` : `+b=${b}`}`
      : '';
  const gcsName = /GCS Name = ([^|]+)/.exec(keys.texts.get(KEY.geographicCitation) ?? '')?.[1]?.trim();
  if (!definition && !numbers) {
    unresolvable(
      file,
      `${label} on ${gcsName ?? (datumCode ? `datum EPSG:${datumCode}` : 'an unnamed datum')}`,
      'names no geographic CRS or ellipsoid the platform can resolve',
    );
  }
  const fromDefinition = (definition?.proj4 ?? '')
    .split(/\s+/)
    .filter((p) => /^\+(ellps|datum|towgs84|a|b|rf)=/.test(p) && !(numbers && /^\+(ellps|a|b|rf)=/.test(p)));
  return {
    name: definition?.name ?? gcsName ?? 'an unnamed datum',
    ellipsoid: [numbers, ...fromDefinition].filter(Boolean).join(' '),
    accuracy: definition?.accuracy ?? null,
  };
}

/** An OGC WKT 1 record: a projected CRS, or a compound of one and a vertical CRS. */
function fromWkt(wkt: string, file: string, at: Date): LasCrs {
  const tree = parseWkt(wkt);
  if (!tree) unresolvable(file, 'a WKT record that cannot be read', 'is not well-formed OGC WKT');
  if (['GEOGCS', 'GEOGCRS', 'GEODCRS', 'GEOGRAPHICCRS', 'GEODETICCRS'].includes(tree.keyword))
    geographic(file);
  // WKT 1 (PROJCS, COMPD_CS) and WKT 2 (PROJCRS, COMPOUNDCRS): proj4 parses both projected forms.
  const compound = tree.keyword === 'COMPD_CS' || tree.keyword === 'COMPOUNDCRS';
  const horizontal: WktNode | undefined = compound
    ? child(tree, 'PROJCS', 'PROJCRS', 'PROJECTEDCRS', 'GEOGCS', 'GEOGCRS', 'GEODCRS')
    : ['PROJCS', 'PROJCRS', 'PROJECTEDCRS'].includes(tree.keyword)
      ? tree
      : undefined;
  const label = `${nameOf(tree) ?? tree.keyword}`;
  if (horizontal && ['GEOGCS', 'GEOGCRS', 'GEODCRS'].includes(horizontal.keyword)) geographic(file);
  if (!horizontal)
    unresolvable(file, `"${label}" (WKT ${tree.keyword})`, 'is not a projected CRS the engine reads');
  const projected = textOf(wkt, horizontal);
  const parsed = parse(projected);
  const name = nameOf(horizontal) ?? label;
  if (!parsed || parsed.projName === undefined) unresolvable(file, `"${name}"`, 'proj4 cannot project');
  if (parsed.projName === 'longlat') geographic(file);
  const unit = unitOf(parsed);
  if (!unit)
    unresolvable(
      file,
      `"${name}"`,
      `is in a unit (${parsed.units ?? 'unnamed'}) the engine does not convert`,
    );
  const authority = child(horizontal, 'AUTHORITY', 'ID');
  const epsg = authority && /^EPSG$/i.test(String(authority.args[0])) ? Number(authority.args[1]) : undefined;
  const geogcs = child(horizontal, 'GEOGCS', 'BASEGEOGCRS', 'BASEGEODCRS');
  const datumName = nameOf(child(geogcs, 'DATUM', 'ENSEMBLE'));
  const datum = datumStatement(
    {
      geographicName: nameOf(geogcs) ?? name,
      ...(datumName ? { datumName } : {}),
      ...(parsed.datum?.datum_type !== undefined ? { datumType: parsed.datum.datum_type } : {}),
      ...(parsed.datum?.datum_params ? { datumParams: parsed.datum.datum_params } : {}),
      accuracyM:
        epsg !== undefined && Number.isInteger(epsg) ? (epsgDefinition(epsg)?.accuracy ?? null) : null,
    },
    at,
  );
  if (datum === 'grid')
    unresolvable(file, `"${name}"`, `needs ${gridOf(projected)}, which the platform does not hold`);
  let vertical = unit;
  let stated = false;
  const vertCs = compound ? child(tree, 'VERT_CS', 'VERTCRS', 'VERTICALCRS') : undefined;
  if (vertCs) {
    const factor = descendant(vertCs, 'UNIT', 'LENGTHUNIT')?.args[1];
    const found = unitOfFactor(typeof factor === 'number' ? factor : undefined);
    if (!found)
      unresolvable(
        file,
        `heights in "${nameOf(vertCs) ?? 'VERT_CS'}"`,
        'are in a unit the engine does not convert',
      );
    vertical = found;
    stated = true;
  }
  return {
    crs: {
      name,
      ...(epsg !== undefined && Number.isInteger(epsg) ? { epsg } : {}),
      wkt,
      source: 'wkt',
      definition: projected,
      datum,
      verticalUnitStated: stated,
    },
    horizontalUnit: unit,
    verticalUnit: vertical,
  };
}
