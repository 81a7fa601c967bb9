// GET /api/v1/booking-policy: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./bookings.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../../endpoint/types.ts';
import { policySchema } from './bookings.schemas.ts';

export const getBookingPolicy = defineEndpoint({
  operationId: 'getBookingPolicy',
  method: 'GET',
  path: '/booking-policy',
  tag: 'Bookings',
  summary: "Read the tenant's instant-book policy: which requests it confirms without a person.",
  description:
    'A member records the policy in the portal (PUT /api/portal/booking-policy); no API token can set it.',
  auth: 'scope',
  scope: { action: 'read', kind: 'settings' },
  response: z.object({ policy: policySchema }),
  handle: async ({ ctx, clients }) => ({
    body: { policy: await callUnary(clients.bookings, 'getBookingPolicy', {}, ctx) },
  }),
});
