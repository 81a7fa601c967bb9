// GET /geocode: search by text (q) or reverse a point (lat and lng), through the configured geocoder.
import { AppError } from '@fieldops/kit';
import type { planning } from '@fieldops/proto';
import type { Geocoder, Place } from './geocoder.port.ts';

const toPlaceView = (place: Place): planning.Place => ({ ...place });

export async function geocode(
  geocoder: Geocoder,
  req: planning.GeocodeRequest,
): Promise<planning.GeocodeReply> {
  const limit = Math.min(Math.max(req.limit || 5, 1), 20);
  if (req.q !== undefined) {
    const places = await geocoder.search(req.q, { limit, countryCode: req.country });
    return { items: places.map(toPlaceView), geocoder: geocoder.name, attribution: geocoder.attribution };
  }
  if (req.lat === undefined || req.lng === undefined) {
    throw new AppError('field_required', 'Send q to search, or lat and lng to reverse-geocode a point.', {
      field: 'q',
    });
  }
  const found = await geocoder.reverse({ lat: req.lat, lng: req.lng });
  return {
    items: found.nearest ? [toPlaceView(found.nearest)] : [],
    countryCode: found.countryCode ?? '',
    geocoder: geocoder.name,
    attribution: geocoder.attribution,
  };
}
