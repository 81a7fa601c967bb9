// Bookings (ENDPOINTS rows 60–64; spec "Operations named but with their shape left open" 4, and
// "What the service does" 7). Served by crm.BookingService. A request holds its window; a person
// confirms it through the two-phase confirmation, or the tenant's recorded instant-book policy
// confirms it at creation; it is never confirmed by a rule or a schedule. GET /booking-policy
// lets a caller read that policy; only a member in the portal records it.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { BOOKING_FIELD_LIMITS, BOOKING_INSTANT_MAX, BOOKING_STATUS_MACHINE } from '@fieldops/contracts';
import { z } from 'zod';
import { writeResponse } from '../../endpoint/common.schemas.ts';
import type { MovedRecord } from '../../endpoint/move-endpoint.ts';
import { bookingSchema } from './bookings.gen.ts';

/** Checked by the service too, which answers with an example of the expected form. */
export const instant = z.string().trim().min(1).max(BOOKING_INSTANT_MAX);
export const resourceId = z
  .string()
  .trim()
  .max(BOOKING_FIELD_LIMITS.resourceId)
  .describe(
    'The crew or piece of equipment the visit needs (letters, digits, _ . : -); windows clash only on the same resource. Absent: "default".',
  );

// The response shapes are derived from bookings.proto (npm run gen); what differs over HTTP is here.
export { bookingSchema, policySchema } from './bookings.gen.ts';

export const CLASH =
  'A window that overlaps one held on the same resource answers 409 conflict with `clashes` and `alternatives` (free windows of the same length).';

export const MOVED_BOOKING: MovedRecord = {
  path: '/bookings',
  tag: 'Bookings',
  kind: 'job',
  machine: { field: 'status', moves: BOOKING_STATUS_MACHINE.moves },
  response: writeResponse('booking', bookingSchema),
};
