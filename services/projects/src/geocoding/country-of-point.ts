// The country a point lies in, from country borders shipped as a package (country-coder, built on
// OpenStreetMap boundaries): offline, and exact at borders where the nearest city is not.
import { iso1A2Code } from '@rapideditor/country-coder';
import type { GeoPoint } from './geocoder.port.ts';

export function countryOfPoint(point: GeoPoint): string | null {
  return iso1A2Code([point.lng, point.lat]);
}
