// GET /api/v1/bookings, POST /api/v1/bookings: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./bookings.schemas.ts; listed by ../families.gen.ts.
import { BOOKING_FIELD_LIMITS, BOOKING_STATUSES } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField, writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { listEndpoint } from '../../endpoint/list-endpoint.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { instant, resourceId, bookingSchema, CLASH } from './bookings.schemas.ts';

export const listBookings = listEndpoint({
  operationId: 'listBookings',
  path: '/bookings',
  tag: 'Bookings',
  summary: 'List bookings in calendar order, filtered by status, customer, resource or a time range.',
  kind: 'job',
  service: 'bookings',
  filters: {
    status: z.enum(BOOKING_STATUSES).optional(),
    customerId: z.string().max(BOOKING_FIELD_LIMITS.customerId).optional(),
    resourceId: z.string().max(BOOKING_FIELD_LIMITS.resourceId).optional(),
    from: instant.optional().describe('Keeps bookings whose window ends after this date-time.'),
    to: instant.optional().describe('Keeps bookings whose window starts before this date-time.'),
  },
  item: bookingSchema,
});

export const createBooking = defineEndpoint({
  operationId: 'createBooking',
  method: 'POST',
  path: '/bookings',
  tag: 'Bookings',
  summary: 'Request a visit window for a customer; the request holds the window against other customers.',
  description: `The booking is created in status requested, unless the tenant's recorded instant-book policy covers the window, in which case the policy confirms it at once (confirmedVia: instant_book_policy). ${CLASH}`,
  auth: 'scope',
  scope: { action: 'create', kind: 'job' },
  idempotent: true,
  dryRun: true,
  body: z.strictObject({
    customerId: z.string().trim().min(1).max(BOOKING_FIELD_LIMITS.customerId),
    start: instant.describe('ISO 8601 date-time with an offset; in the future.'),
    end: instant.describe('After start; the window is at most 24 hours.'),
    resourceId: resourceId.optional(),
    dealId: z
      .string()
      .trim()
      .max(BOOKING_FIELD_LIMITS.dealId)
      .optional()
      .describe('A deal of the same customer.'),
    notes: z.string().max(BOOKING_FIELD_LIMITS.notes).optional(),
    opId: opIdField,
  }),
  response: writeResponse('booking', bookingSchema),
  errors: ['not_found'],
  handle: ({ body, ctx, clients }) =>
    forwardWrite('booking', callUnary(clients.bookings, 'createBooking', body, ctx)),
});
