// Geocoding as a port: place names to points (search) and points to places (reverse). The
// embedded default answers offline from a gazetteer shipped as a package; the Nominatim adapter
// asks an external geocoder when the operator configures one (geocoder.config.ts).

export interface GeoPoint {
  lat: number;
  lng: number;
}

export interface Place {
  name: string;
  /** First-level division (state, province, nation of the UK), when known. */
  region?: string;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  lat: number;
  lng: number;
  /** How fine the point is: a locality (city, town) or an address. */
  precision: 'locality' | 'address';
  population?: number;
  /** Which geocoder answered: the offline gazetteer or the external one. */
  source: 'gazetteer' | 'nominatim';
}

export interface ReversePlace {
  /** ISO 3166-1 alpha-2 of the country the point lies in; null at sea or in unclaimed land. */
  countryCode: string | null;
  /** The nearest known place, when one lies within reach. */
  nearest: Place | null;
}

export interface Geocoder {
  readonly name: 'gazetteer' | 'nominatim';
  /** The credit the data's licence asks every answer to carry. */
  readonly attribution: string;
  search(query: string, options: { limit: number; countryCode?: string }): Promise<Place[]>;
  reverse(point: GeoPoint): Promise<ReversePlace>;
}
