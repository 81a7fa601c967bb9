// POST /api/v1/bookings/:id/decline: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./bookings.schemas.ts; listed by ../families.gen.ts.
import { BOOKING_DECLINE_REASON_MAX } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField } from '../../endpoint/common.schemas.ts';
import { moveEndpoint } from '../../endpoint/move-endpoint.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { MOVED_BOOKING } from './bookings.schemas.ts';

export const declineBooking = defineEndpoint({
  ...moveEndpoint(MOVED_BOOKING, '/bookings/:id/decline'),
  operationId: 'declineBooking',
  summary: 'Decline a requested booking with a reason the customer reads; the window is freed.',
  description: 'Declining twice answers replayed: true and keeps the first reason.',
  idempotent: true,
  body: z.strictObject({
    reason: z
      .string()
      .trim()
      .min(1)
      .max(BOOKING_DECLINE_REASON_MAX)
      .describe('Written for the customer, who reads it: why the window cannot be served.'),
    opId: opIdField,
  }),
  handle: ({ params, body, ctx, clients }) =>
    forwardWrite(
      'booking',
      callUnary(clients.bookings, 'declineBooking', { id: params.id, reason: body.reason }, ctx),
    ),
});
