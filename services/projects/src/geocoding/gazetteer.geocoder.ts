// The offline geocoder. Search reads a free-form query as comma-separated parts: the first part
// that names a place is the place, and the other parts' words narrow it (a country code or name,
// a state code or name), so "Denver, CO", "Paris, France" and "1 Main St, Springfield, IL 62701"
// all find their town. Matches rank by population. Reverse takes the country from the borders
// data set and the nearest place within 50 km from the gazetteer.
import { around } from 'geokdbush';
import { countryOfPoint } from './country-of-point.ts';
import { foldName, gazetteer, type Gazetteer, type GazetteerEntry } from './gazetteer.ts';
import type { GeoPoint, Geocoder, Place, ReversePlace } from './geocoder.port.ts';

const NEAREST_WITHIN_KM = 50;
export const GAZETTEER_ATTRIBUTION =
  'Places: GeoNames (geonames.org), CC BY 4.0. Borders: OpenStreetMap contributors, ODbL, via country-coder.';
const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

export function gazetteerGeocoder(data: () => Gazetteer = gazetteer): Geocoder {
  return {
    name: 'gazetteer',
    attribution: GAZETTEER_ATTRIBUTION,
    search: async (query, { limit, countryCode }) => searchGazetteer(data(), query, limit, countryCode),
    reverse: async (point) => reverseGazetteer(data(), point),
  };
}

function searchGazetteer(data: Gazetteer, query: string, limit: number, countryCode?: string): Place[] {
  const parts = query.split(',').map(foldName).filter(Boolean);
  for (const [position, part] of parts.entries()) {
    const candidates = data.byName.get(part);
    if (!candidates) continue;
    const qualifiers = parts
      .filter((_, other) => other !== position)
      .flatMap((other) => qualifierWords(other));
    const matches = candidates
      .map((index) => data.entries[index] as GazetteerEntry)
      .filter((entry) => !countryCode || entry.country === countryCode)
      .filter(
        (entry) => qualifiers.length === 0 || qualifiers.some((words) => describes(data, entry, words)),
      );
    if (matches.length === 0) continue;
    return matches
      .sort((a, b) => b.population - a.population)
      .slice(0, limit)
      .map((entry) => toPlace(data, entry));
  }
  return [];
}

/** A qualifier part, whole and word by word ("IL 62701" → "il 62701", "il", "62701"). */
function qualifierWords(part: string): string[] {
  const words = part.split(' ');
  return words.length > 1 ? [part, ...words] : [part];
}

/** Whether `words` names the entry's country or first-level division (by code or by name). */
function describes(data: Gazetteer, entry: GazetteerEntry, words: string): boolean {
  const region = data.regions.get(`${entry.country}.${entry.adminCode}`);
  return [entry.country, entry.adminCode, region, countryNames.of(entry.country)]
    .filter((name): name is string => Boolean(name))
    .some((name) => foldName(name) === words);
}

function reverseGazetteer(data: Gazetteer, point: GeoPoint): ReversePlace {
  const [nearest] = around(data.points, point.lng, point.lat, 1, NEAREST_WITHIN_KM);
  const entry = nearest === undefined ? undefined : data.entries[nearest];
  return { countryCode: countryOfPoint(point), nearest: entry ? toPlace(data, entry) : null };
}

function toPlace(data: Gazetteer, entry: GazetteerEntry): Place {
  const region = data.regions.get(`${entry.country}.${entry.adminCode}`);
  return {
    name: entry.name,
    ...(region ? { region } : {}),
    countryCode: entry.country,
    lat: entry.lat,
    lng: entry.lng,
    precision: 'locality',
    population: entry.population,
    source: 'gazetteer',
  };
}
