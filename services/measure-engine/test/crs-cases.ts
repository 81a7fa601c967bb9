// The coordinate systems survey software writes, each with the project's generated yard placed in
// its zone (@fieldops/survey-fixtures/site) and written with proj4 from a PROJ string given here
// (not from the engine's resolver), in that CRS's own units. Shared by crs.test.ts (LAS) and
// laz.test.ts (the same files as LAZ).
import proj4 from 'proj4';
import { SITE_ORIGIN, siteCloudProjected } from '@fieldops/survey-fixtures/site';
import type { Geodetic } from '../src/index.ts';
import { las } from './point-clouds.ts';

export const US_FOOT = 1200 / 3937;
export const FOOT = 0.3048;

export const ETRS89_UTM32N_WKT =
  'PROJCS["ETRS89 / UTM zone 32N",GEOGCS["ETRS89",DATUM["European_Terrestrial_Reference_System_1989",SPHEROID["GRS 1980",6378137,298.257222101,AUTHORITY["EPSG","7019"]],TOWGS84[0,0,0,0,0,0,0],AUTHORITY["EPSG","6258"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4258"]],PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",9],PARAMETER["scale_factor",0.9996],PARAMETER["false_easting",500000],PARAMETER["false_northing",0],UNIT["metre",1,AUTHORITY["EPSG","9001"]],AXIS["Easting",EAST],AXIS["Northing",NORTH],AUTHORITY["EPSG","25832"]]';

export interface Case {
  readonly title: string;
  readonly origin: Geodetic;
  /** The CRS as a PROJ string, for writing the yard (x, y in `unitM` metres per unit). */
  readonly proj: string;
  readonly unitM: number;
  readonly file: Parameters<typeof las>[1];
  readonly expected: { unit: string; name: RegExp; datum: string; epsg?: number };
}

export const CA3 =
  '+proj=lcc +lat_0=36.5 +lon_0=-120.5 +lat_1=38.4333333333333 +lat_2=37.0666666666667 +x_0=2000000.0001016 +y_0=500000.0001016 +ellps=GRS80 +units=us-ft +no_defs';
export const CA_ORIGIN: Geodetic = { lat: 37.93, lon: -121.7, alt: 60 };

export const CASES: readonly Case[] = [
  {
    title: 'WGS 84 / UTM zone 30N in metres (EPSG code and unit key, as OpenDroneMap writes)',
    origin: SITE_ORIGIN,
    proj: '+proj=utm +zone=30 +datum=WGS84 +units=m +no_defs',
    unitM: 1,
    file: {
      geoKeys: [
        [1024, 1],
        [3072, 32630],
        [3076, 9001],
      ],
    },
    expected: { unit: 'metre', name: /WGS 84 \/ UTM zone 30N/, datum: 'wgs84', epsg: 32630 },
  },
  {
    title: 'NAD83 / California zone 3 in US survey feet, the EPSG code alone (no unit key)',
    origin: CA_ORIGIN,
    proj: CA3,
    unitM: US_FOOT,
    file: {
      geoKeys: [
        [1024, 1],
        [3072, 2227],
      ],
    },
    expected: {
      unit: 'us-survey-foot',
      name: /California zone 3 \(ftUS\)/,
      datum: 'taken-as-wgs84',
      epsg: 2227,
    },
  },
  {
    title: 'NAD83 / California zone 3 in US survey feet, with explicit linear and vertical unit keys',
    origin: CA_ORIGIN,
    proj: CA3,
    unitM: US_FOOT,
    file: {
      geoKeys: [
        [1024, 1],
        [3072, 2227],
        [3076, 9003],
        [4099, 9003],
      ],
    },
    expected: {
      unit: 'us-survey-foot',
      name: /California zone 3 \(ftUS\)/,
      datum: 'taken-as-wgs84',
      epsg: 2227,
    },
  },
  {
    title: 'NAD83 / Arizona Central in international feet (EPSG:2223 alone, transverse Mercator)',
    origin: { lat: 33.45, lon: -111.95, alt: 340 },
    proj: '+proj=tmerc +lat_0=31 +lon_0=-111.916666666667 +k=0.9999 +x_0=213360 +y_0=0 +ellps=GRS80 +units=ft +no_defs',
    unitM: FOOT,
    file: {
      geoKeys: [
        [1024, 1],
        [3072, 2223],
      ],
    },
    expected: { unit: 'foot', name: /Arizona Central \(ft\)/, datum: 'taken-as-wgs84', epsg: 2223 },
  },
  {
    title: 'ETRS89 / UTM zone 32N as LAS 1.4 with an OGC WKT record',
    origin: { lat: 50.11, lon: 8.68, alt: 110 },
    proj: '+proj=utm +zone=32 +ellps=GRS80 +units=m +no_defs',
    unitM: 1,
    file: { minor: 4, wkt: ETRS89_UTM32N_WKT },
    expected: { unit: 'metre', name: /ETRS89 \/ UTM zone 32N/, datum: 'taken-as-wgs84', epsg: 25832 },
  },
  {
    title:
      'a user-defined Lambert conformal conic on NAD83(HARN) in international feet (GeoKeys with parameters, as the Autzen lidar states it)',
    origin: { lat: 44.05, lon: -123.07, alt: 130 },
    proj: '+proj=lcc +lat_1=43 +lat_2=45.5 +lat_0=41.75 +lon_0=-120.5 +x_0=400000 +y_0=0 +ellps=GRS80 +units=ft +no_defs',
    unitM: FOOT,
    file: {
      geoKeys: [
        [1024, 1],
        [2048, 4152],
        [2054, 9102],
        [3072, 32767],
        [3075, 8],
        [3076, 9002],
        [4099, 9002],
      ],
      geoDoubles: [
        [3078, 43],
        [3079, 45.5],
        [3084, -120.5],
        [3085, 41.75],
        [3086, 400000 / FOOT],
        [3087, 0],
      ],
    },
    expected: { unit: 'foot', name: /lcc on NAD83\(HARN\)/, datum: 'taken-as-wgs84' },
  },
];

/** The yard written in the case's CRS and units (heights in the same unit). */
export function yardIn(c: Case): Uint8Array {
  const toCrs = proj4('EPSG:4326', c.proj);
  const cloud = siteCloudProjected((lat, lon, alt) => {
    const [x, y] = toCrs.forward([lon, lat]);
    return [x!, y!, alt / c.unitM];
  }, c.origin);
  return las(cloud, c.file);
}
