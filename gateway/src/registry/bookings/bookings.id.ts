// GET /api/v1/bookings/:id: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./bookings.schemas.ts; listed by ../families.gen.ts.
import { BOOKING_STATUS_MACHINE } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { idParams } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { bookingSchema } from './bookings.schemas.ts';

export const getBooking = defineEndpoint({
  operationId: 'getBooking',
  method: 'GET',
  path: '/bookings/:id',
  tag: 'Bookings',
  summary: 'Read one booking and the triggers legal from its status.',
  auth: 'scope',
  scope: { action: 'read', kind: 'job' },
  params: idParams,
  response: z.object({
    booking: bookingSchema,
    legalTriggers: z.array(z.enum(BOOKING_STATUS_MACHINE.triggerNames)),
  }),
  errors: ['not_found'],
  handle: async ({ params, ctx, clients }) => ({
    body: { ...(await callUnary(clients.bookings, 'getBooking', { id: params.id }, ctx)) },
  }),
});
