// Field rules for projects, shared by create and amend. The gateway validates the same shapes
// from the endpoint schemas; these are the backstop for any other gRPC caller.
import { AppError } from '@fieldops/kit';
import { cleanText } from '@fieldops/kit/domain';
import type { GeoPoint } from './project.model.ts';

/** A vertical is a lower-case slug, like the tenant's default vertical (survey, roofing, solar). */
export const VERTICAL_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;

export function requiredText(value: string | undefined, field: string, why: string): string {
  const text = cleanText(value);
  if (!text) throw new AppError('field_required', `${field} is required: ${why}.`, { field });
  return text;
}

export function verticalOf(value: string): string {
  const vertical = value.trim().toLowerCase();
  if (!VERTICAL_PATTERN.test(vertical)) {
    throw new AppError(
      'field_invalid',
      'vertical must be a lower-case slug such as survey, roofing or solar (letters, digits and dashes, up to 40).',
      { field: 'vertical' },
    );
  }
  return vertical;
}

export function geoOf(geo: GeoPoint | undefined): GeoPoint | undefined {
  if (!geo) return undefined;
  const valid =
    Number.isFinite(geo.lat) &&
    Number.isFinite(geo.lng) &&
    Math.abs(geo.lat) <= 90 &&
    Math.abs(geo.lng) <= 180;
  if (!valid) {
    throw new AppError('field_invalid', 'geo needs lat between -90 and 90 and lng between -180 and 180.', {
      field: 'geo',
    });
  }
  return { lat: geo.lat, lng: geo.lng };
}
