// Readiness of a visit describes preparation only: imagery recent enough to plan from, the roof
// marked (for roof work), a draft flight plan, and a person's review of it. It never authorizes a
// flight: the remote pilot decides on the day, on site, under the rules of the jurisdiction.
import type { SitePreparationDoc } from './site-preparation.ts';

/** Imagery older than this is too old to plan a flight from (trees grow, roofs change). */
export const STALE_IMAGERY_DAYS = 365;
/** Verticals whose visits are about a roof. */
export const ROOF_VERTICALS: readonly string[] = ['roofing', 'solar'];

export const READINESS_NOTE =
  'Readiness describes preparation only. It never authorizes a flight: the remote pilot decides on site, under the rules of the jurisdiction.';

export interface VisitReadiness {
  state: 'prepared' | 'needs_preparation';
  missing: string[];
  note: string;
}

export function imageryAgeDays(capturedAt: string, onDate: string): number {
  const ms = Date.parse(`${onDate}T00:00:00Z`) - Date.parse(capturedAt);
  return Math.max(0, Math.floor(ms / 86_400_000));
}

export function visitReadiness(
  vertical: string,
  prep: SitePreparationDoc | null,
  onDate: string,
): VisitReadiness {
  const missing: string[] = [];
  if (!prep?.imageryCapturedAt) missing.push('imagery');
  else if (imageryAgeDays(prep.imageryCapturedAt, onDate) > STALE_IMAGERY_DAYS)
    missing.push('recent_imagery');
  if (ROOF_VERTICALS.includes(vertical) && !prep?.roofMarked) missing.push('roof_marked');
  if (!prep?.draftFlightPlanId) missing.push('draft_flight_plan');
  if (!prep?.flightPlanReviewedBy) missing.push('human_review');
  return { state: missing.length === 0 ? 'prepared' : 'needs_preparation', missing, note: READINESS_NOTE };
}
