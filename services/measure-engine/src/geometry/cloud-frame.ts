// Where a stored point cloud's coordinates sit on the earth, so that positions a customer states
// in WGS 84 (a toe drawn on a map) can be placed in them. Two frames are known:
// - east, north and up of a stated geodetic origin, in metres: what the platform's photogrammetry
//   writes (the origin is named in the PLY header);
// - any projected CRS a LAS file states and the engine resolved (readers/las-crs.ts): a UTM zone
//   on WGS 84 as OpenDroneMap writes, a State Plane zone in US survey feet, ETRS89 / UTM … placed
//   through proj4 with the file's own definition, in the file's own units.
// A cloud that states neither is not guessed at: the caller refuses stated regions on it.
import proj4 from 'proj4';
import type { CoordinateSystem, LinearUnit } from '../types.ts';
import { toLocalEnu, type GeodeticOrigin, type Vec3 } from './geodesy.ts';

export interface CloudFrame {
  /** The frame in words, for answers and logs. */
  readonly name: string;
  /**
   * The cloud's x, y, z of a WGS 84 position; `alt` is in the cloud's own altitude frame (the
   * GPS altitude of a photogrammetry origin, the LAS file's vertical datum). Without it, the
   * position is taken at the frame's own altitude (a local frame's origin), which is where a toe
   * drawn on a map lies for the purpose of its plan position.
   */
  place(lat: number, lng: number, alt?: number): Vec3;
}

/** Metres east, north and up of `origin`. */
export function enuCloudFrame(origin: GeodeticOrigin): CloudFrame {
  return {
    name: `metres east, north and up of ${origin.lat.toFixed(6)}, ${origin.lng.toFixed(6)}`,
    place: (lat, lng, alt = origin.alt) => toLocalEnu(origin, lat, lng, alt),
  };
}

/** The UTM zone and hemisphere of a WGS 84 / UTM EPSG code, or null for any other code. */
export function utmZoneOf(epsg: number): { zone: number; south: boolean } | null {
  if (!Number.isInteger(epsg)) return null;
  if (epsg >= 32601 && epsg <= 32660) return { zone: epsg - 32600, south: false };
  if (epsg >= 32701 && epsg <= 32760) return { zone: epsg - 32700, south: true };
  return null;
}

/** The cloud's frame for a WGS 84 / UTM EPSG code (metres), or null when the code is not one. */
export function utmCloudFrame(epsg: number): CloudFrame | null {
  const utm = utmZoneOf(epsg);
  if (utm === null) return null;
  const definition = `+proj=utm +zone=${utm.zone}${utm.south ? ' +south' : ''} +datum=WGS84 +units=m +no_defs`;
  const toUtm = proj4('EPSG:4326', definition);
  return {
    name: `WGS 84 / UTM zone ${utm.zone}${utm.south ? 'S' : 'N'} (EPSG:${epsg})`,
    place(lat, lng, alt = 0) {
      const [easting, northing] = toUtm.forward([lng, lat]);
      return [easting!, northing!, alt];
    },
  };
}

/**
 * The cloud's frame for the projected CRS its file states: WGS 84 positions projected through the
 * CRS's definition (x, y in the file's horizontal unit, as its points are), and an altitude in
 * metres given in the file's vertical unit. The datum rule of `crs.datum` applies: a definition
 * without a transformation places the position as if on the CRS's datum.
 */
export function projectedCloudFrame(crs: CoordinateSystem, vertical: LinearUnit): CloudFrame {
  const toCrs = proj4('EPSG:4326', crs.definition);
  return {
    name: `${crs.name}${crs.epsg !== undefined ? ` (EPSG:${crs.epsg})` : ''}`,
    place(lat, lng, alt = 0) {
      const [x, y] = toCrs.forward([lng, lat]);
      return [x!, y!, alt / vertical.metres];
    },
  };
}
