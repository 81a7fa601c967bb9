// What a snapshot measured, as a field a client branches on (basis) and a sentence it shows: the
// regions the customer stated, or the automatic region, which is the whole capture measured above
// a plane fitted to its edges and is not a stated stockpile.
import type { MeasurementBasis } from '@fieldops/contracts';
import { WHOLE_SITE_REGION_ID } from '@fieldops/measure-engine';
import type { measurements } from '@fieldops/proto';

export const automaticDisclosure =
  'Automatic region: this is the whole capture measured above a plane fitted to its edges, not a stated stockpile; trees, buildings and anything else above that plane are in the volume. State the regions to measure (PUT /projects/:id/regions) and measure again.';

/** The automatic region is the engine's whole-capture region, alone. */
export function basisOf(quantities: measurements.SiteQuantities): MeasurementBasis {
  const [only, ...more] = quantities.regions;
  return only?.regionId === WHOLE_SITE_REGION_ID && more.length === 0
    ? 'automatic-whole-capture'
    : 'stated-regions';
}
