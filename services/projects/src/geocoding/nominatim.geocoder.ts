// The external geocoder: a Nominatim server (OpenStreetMap's geocoder, or a self-hosted one) over
// HTTP. Its usage policy asks every client to identify itself, so the User-Agent is required
// configuration. A failure or a slow answer is 503 unavailable (retryable), never a crash.
import { AppError } from '@fieldops/kit';
import { countryOfPoint } from './country-of-point.ts';
import type { GeoPoint, Geocoder, Place, ReversePlace } from './geocoder.port.ts';

export interface NominatimOptions {
  /** Base URL, e.g. https://nominatim.openstreetmap.org */
  baseUrl: string;
  /** Identifies this installation to the server (required by the public server's policy). */
  userAgent: string;
  timeoutMs?: number;
}

interface NominatimRow {
  lat: string;
  lon: string;
  name?: string;
  display_name?: string;
  addresstype?: string;
  address?: Record<string, string>;
}

const LOCALITY_TYPES = new Set([
  'city',
  'town',
  'village',
  'hamlet',
  'municipality',
  'suburb',
  'county',
  'state',
  'country',
]);

export function nominatimGeocoder(options: NominatimOptions): Geocoder {
  const get = async (path: string, params: Record<string, string>): Promise<unknown> => {
    const url = new URL(path, options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    for (const [key, value] of Object.entries({ format: 'jsonv2', addressdetails: '1', ...params }))
      url.searchParams.set(key, value);
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { 'user-agent': options.userAgent, accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
      });
    } catch (error) {
      throw unavailable(`could not be reached`, error);
    }
    if (!response.ok) throw unavailable(`answered HTTP ${response.status}`);
    return response.json();
  };
  return {
    name: 'nominatim',
    attribution: 'Data © OpenStreetMap contributors, ODbL 1.0 (openstreetmap.org/copyright).',
    search: async (query, { limit, countryCode }) => {
      const rows = (await get('search', {
        q: query,
        limit: String(limit),
        ...(countryCode ? { countrycodes: countryCode.toLowerCase() } : {}),
      })) as NominatimRow[];
      return (Array.isArray(rows) ? rows : []).map(toPlace).filter((place): place is Place => place !== null);
    },
    reverse: async (point: GeoPoint): Promise<ReversePlace> => {
      const row = (await get('reverse', { lat: String(point.lat), lon: String(point.lng), zoom: '10' })) as
        NominatimRow | { error: string };
      const place = 'lat' in row ? toPlace(row) : null;
      // At sea Nominatim answers an error; the borders data set still says "no country".
      return { countryCode: place?.countryCode ?? countryOfPoint(point), nearest: place };
    },
  };
}

function toPlace(row: NominatimRow): Place | null {
  const countryCode = row.address?.['country_code']?.toUpperCase();
  const lat = Number(row.lat);
  const lng = Number(row.lon);
  if (!countryCode || !Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  const address = row.address ?? {};
  const region = address['state'] ?? address['province'] ?? address['region'];
  return {
    name: row.name || address['city'] || address['town'] || address['village'] || (row.display_name ?? ''),
    ...(region ? { region } : {}),
    countryCode,
    lat,
    lng,
    precision: LOCALITY_TYPES.has(row.addresstype ?? '') ? 'locality' : 'address',
    source: 'nominatim',
  };
}

const unavailable = (what: string, cause?: unknown): AppError =>
  new AppError('unavailable', `The geocoder ${what}. Try again shortly.`, {}, { cause });
