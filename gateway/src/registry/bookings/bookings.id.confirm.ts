// POST /api/v1/bookings/:id/confirm: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./bookings.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { moveEndpoint } from '../../endpoint/move-endpoint.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { CLASH, MOVED_BOOKING } from './bookings.schemas.ts';

export const confirmBooking = defineEndpoint({
  ...moveEndpoint(MOVED_BOOKING, '/bookings/:id/confirm'),
  operationId: 'confirmBooking',
  summary: 'Confirm a requested booking: a human act, through the two-phase confirmation.',
  description: `The first call answers 409 confirmation_required; the identical request re-sent with x-service-confirm is performed. X-Agent-Confirmed-By is stored as confirmedByClaim, a claim by the caller. The window is checked again: ${CLASH} A booking already confirmed answers replayed: true.`,
  idempotent: true,
  confirm: { effect: 'binding' },
  handle: ({ params, ctx, clients }) =>
    forwardWrite('booking', callUnary(clients.bookings, 'confirmBooking', { id: params.id }, ctx)),
});
