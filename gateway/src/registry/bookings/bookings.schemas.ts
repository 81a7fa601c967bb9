// Bookings (ENDPOINTS rows 60–64; spec "Operations named but with their shape left open" 4, and
// "What the service does" 7). Served by crm.BookingService. A request holds its window; a person
// confirms it through the two-phase confirmation, or the tenant's recorded instant-book policy
// confirms it at creation; it is never confirmed by a rule or a schedule. GET /booking-policy
// lets a caller read that policy; only a member in the portal records it.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import {
  BOOKING_FIELD_LIMITS,
  BOOKING_INSTANT_MAX,
  BOOKING_STATUSES,
  BOOKING_STATUS_MACHINE,
} from '@fieldops/contracts';
import { z } from 'zod';
import { writeResponse } from '../../endpoint/common.schemas.js';
import type { MovedRecord } from '../../endpoint/move-endpoint.js';

/** Checked by the service too, which answers with an example of the expected form. */
export const instant = z.string().trim().min(1).max(BOOKING_INSTANT_MAX);
export const resourceId = z
  .string()
  .trim()
  .max(BOOKING_FIELD_LIMITS.resourceId)
  .describe(
    'The crew or piece of equipment the visit needs (letters, digits, _ . : -); windows clash only on the same resource. Absent: "default".',
  );

export const bookingSchema = z
  .object({
    id: z.string(),
    customerId: z.string(),
    dealId: z.string().optional(),
    resourceId: z.string(),
    start: z.string().describe('ISO 8601 UTC; the window is [start, end).'),
    end: z.string(),
    status: z.enum(BOOKING_STATUSES),
    notes: z.string().optional(),
    confirmedVia: z
      .enum(['confirmation', 'instant_book_policy'])
      .optional()
      .describe('A person through the two-phase confirmation, or the tenant’s recorded instant-book policy.'),
    confirmedAt: z.string().optional(),
    confirmedByClaim: z
      .string()
      .optional()
      .describe('X-Agent-Confirmed-By as sent: who the caller says authorised it. A claim, not verified.'),
    confirmedByPrincipal: z
      .string()
      .optional()
      .describe('The member or token that sent the confirmed request.'),
    policyVersion: z.number().int().optional().describe('The instant-book policy version that confirmed it.'),
    declinedAt: z.string().optional(),
    declineReason: z.string().optional().describe('Written for the customer, who reads it.'),
    createdAt: z.string(),
    updatedAt: z.string(),
    opId: z.string().optional(),
  })
  .meta({ id: 'Booking' });

export const policySchema = z
  .object({
    instantBook: z.boolean(),
    minNoticeHours: z.number().int(),
    maxDurationMinutes: z.number().int(),
    version: z.number().int().describe('0 until a member records a policy in the portal.'),
    recordedBy: z.string().optional(),
    recordedAt: z.string().optional(),
  })
  .meta({ id: 'BookingPolicy' });

export const CLASH =
  'A window that overlaps one held on the same resource answers 409 conflict with `clashes` and `alternatives` (free windows of the same length).';

export const MOVED_BOOKING: MovedRecord = {
  path: '/bookings',
  tag: 'Bookings',
  kind: 'job',
  machine: { field: 'status', moves: BOOKING_STATUS_MACHINE.moves },
  response: writeResponse('booking', bookingSchema),
};
