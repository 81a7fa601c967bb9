// Which geocoder the service uses. FIELDOPS_GEOCODER=gazetteer (the default) answers offline;
// FIELDOPS_GEOCODER=nominatim asks FIELDOPS_NOMINATIM_URL (default: the public OpenStreetMap
// server) and needs FIELDOPS_GEOCODER_USER_AGENT, which that server's usage policy requires.
import { gazetteerGeocoder } from './gazetteer.geocoder.ts';
import type { Geocoder } from './geocoder.port.ts';
import { nominatimGeocoder } from './nominatim.geocoder.ts';

export const PUBLIC_NOMINATIM_URL = 'https://nominatim.openstreetmap.org';

export function geocoderFromEnv(env: NodeJS.ProcessEnv = process.env): Geocoder {
  const kind = env['FIELDOPS_GEOCODER'] ?? 'gazetteer';
  if (kind === 'gazetteer') return gazetteerGeocoder();
  if (kind !== 'nominatim') {
    throw new Error(`FIELDOPS_GEOCODER must be gazetteer or nominatim, not ${JSON.stringify(kind)}.`);
  }
  const userAgent = env['FIELDOPS_GEOCODER_USER_AGENT'];
  if (!userAgent) {
    throw new Error(
      'FIELDOPS_GEOCODER=nominatim needs FIELDOPS_GEOCODER_USER_AGENT (the name and contact the server asks for).',
    );
  }
  return nominatimGeocoder({ baseUrl: env['FIELDOPS_NOMINATIM_URL'] ?? PUBLIC_NOMINATIM_URL, userAgent });
}
