// Placing a site in a jurisdiction: its point's country (borders data set) or, without a point,
// the country of its geocoded address; then the rules data set's jurisdiction for that country.
import { AppError } from '@fieldops/kit';
import { countryOfPoint } from '../geocoding/country-of-point.ts';
import type { GeoPoint, Geocoder } from '../geocoding/geocoder.port.ts';
import { JURISDICTIONS, RULESET_VERSION, type Jurisdiction } from './compliance-rules.data.ts';

export interface Placement {
  jurisdiction: Jurisdiction;
  countryCode: string;
  locatedBy: 'geo' | 'address';
}

export function jurisdictionOfCountry(countryCode: string): Jurisdiction | undefined {
  return JURISDICTIONS.find((jurisdiction) => jurisdiction.countries.includes(countryCode));
}

const unplaceable = (reason: string, message: string, details: Record<string, unknown> = {}): AppError =>
  new AppError('conflict', `The site cannot be placed in a jurisdiction: ${message}`, {
    details: { reason, ...details },
  });

export async function placeSite(
  site: { geo?: GeoPoint; siteAddress?: string },
  geocoder: Geocoder,
): Promise<Placement> {
  const located = await locate(site, geocoder);
  const jurisdiction = jurisdictionOfCountry(located.countryCode);
  if (!jurisdiction) {
    throw unplaceable(
      'jurisdiction_not_covered',
      `it lies in ${located.countryCode}, which rules data set ${RULESET_VERSION} does not cover (it covers ${JURISDICTIONS.map((j) => j.name).join('; ')}).`,
      { countryCode: located.countryCode, rulesetVersion: RULESET_VERSION },
    );
  }
  return { jurisdiction, ...located };
}

async function locate(
  site: { geo?: GeoPoint; siteAddress?: string },
  geocoder: Geocoder,
): Promise<{ countryCode: string; locatedBy: 'geo' | 'address' }> {
  if (site.geo) {
    const countryCode = countryOfPoint(site.geo);
    if (!countryCode) {
      throw unplaceable(
        'outside_any_country',
        `its point (${site.geo.lat}, ${site.geo.lng}) lies in no country. Correct the project's geo.`,
      );
    }
    return { countryCode, locatedBy: 'geo' };
  }
  if (!site.siteAddress) {
    throw unplaceable(
      'site_not_located',
      'the project has neither geo nor a site address. Set one with PATCH /projects/:id.',
    );
  }
  const [place] = await geocoder.search(site.siteAddress, { limit: 1 });
  if (!place) {
    throw unplaceable(
      'site_not_located',
      `its address "${site.siteAddress}" names no place the geocoder knows. Add geo to the project.`,
    );
  }
  return { countryCode: place.countryCode, locatedBy: 'address' };
}
