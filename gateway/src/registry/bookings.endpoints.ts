// Bookings (ENDPOINTS rows 60–64; spec "Operations named but with their shape left open" 4, and
// "What the service does" 7). Served by crm.BookingService. A request holds its window; a person
// confirms it through the two-phase confirmation, or the tenant's recorded instant-book policy
// confirms it at creation; it is never confirmed by a rule or a schedule. GET /booking-policy
// lets a caller read that policy; only a member in the portal records it.
import { BOOKING_STATUS_MOVES, BOOKING_STATUSES, BOOKING_TRIGGERS } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import {
  idParams,
  opIdField,
  pageBody,
  pageQuery,
  pageRequest,
  pageResponse,
  writeResponse,
} from './common.schemas.js';
import { moveEndpoint, REASON_MOVE_ERRORS, type MovedRecord } from './move-endpoint.js';
import { defineEndpoint, type EndpointDef } from './types.js';
import { writeResult } from './write-result.js';

/** Checked by the service too, which answers with an example of the expected form. */
const instant = z.string().trim().min(1).max(40);
const resourceId = z
  .string()
  .trim()
  .max(100)
  .describe(
    'The crew or piece of equipment the visit needs (letters, digits, _ . : -); windows clash only on the same resource. Absent: "default".',
  );

export const bookingSchema = z.object({
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
});

const policySchema = z.object({
  instantBook: z.boolean(),
  minNoticeHours: z.number().int(),
  maxDurationMinutes: z.number().int(),
  version: z.number().int().describe('0 until a member records a policy in the portal.'),
  recordedBy: z.string().optional(),
  recordedAt: z.string().optional(),
});

const CLASH =
  'A window that overlaps one held on the same resource answers 409 conflict with `clashes` and `alternatives` (free windows of the same length).';

const MOVED_BOOKING: MovedRecord = {
  path: '/bookings',
  tag: 'Bookings',
  kind: 'job',
  machine: { field: 'status', moves: BOOKING_STATUS_MOVES },
  response: writeResponse('booking', bookingSchema),
};

export const bookingEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'listBookings',
    method: 'GET',
    path: '/bookings',
    tag: 'Bookings',
    summary: 'List bookings in calendar order, filtered by status, customer, resource or a time range.',
    auth: 'scope',
    scope: { action: 'read', kind: 'job' },
    list: true,
    query: z.strictObject({
      ...pageQuery,
      status: z.enum(BOOKING_STATUSES).optional(),
      customerId: z.string().max(100).optional(),
      resourceId: z.string().max(100).optional(),
      from: instant.optional().describe('Keeps bookings whose window ends after this date-time.'),
      to: instant.optional().describe('Keeps bookings whose window starts before this date-time.'),
    }),
    response: pageResponse(bookingSchema),
    errors: ['field_invalid', 'field_invalid_enum', 'unavailable'],
    handle: async ({ query, ctx, clients }) => {
      const { cursor: _cursor, limit: _limit, ...filters } = query;
      const page = await callUnary(
        clients.bookings,
        'listBookings',
        { page: pageRequest(query), ...filters },
        ctx,
      );
      return { body: pageBody(page) };
    },
  }),
  defineEndpoint({
    operationId: 'getBooking',
    method: 'GET',
    path: '/bookings/:id',
    tag: 'Bookings',
    summary: 'Read one booking and the triggers legal from its status.',
    auth: 'scope',
    scope: { action: 'read', kind: 'job' },
    params: idParams,
    response: z.object({ booking: bookingSchema, legalTriggers: z.array(z.enum(BOOKING_TRIGGERS)) }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => ({
      body: { ...(await callUnary(clients.bookings, 'getBooking', { id: params.id }, ctx)) },
    }),
  }),
  defineEndpoint({
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
      customerId: z.string().trim().min(1).max(100),
      start: instant.describe('ISO 8601 date-time with an offset; in the future.'),
      end: instant.describe('After start; the window is at most 24 hours.'),
      resourceId: resourceId.optional(),
      dealId: z.string().trim().max(100).optional().describe('A deal of the same customer.'),
      notes: z.string().max(2000).optional(),
      opId: opIdField,
    }),
    response: writeResponse('booking', bookingSchema),
    errors: [
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_invalid',
      'field_too_long',
      'unknown_field',
      'conflict',
    ],
    handle: async ({ body, ctx, clients }) => {
      const write = await callUnary(clients.bookings, 'createBooking', body, ctx);
      return writeResult('booking', write.booking, write.meta);
    },
  }),
  defineEndpoint({
    ...moveEndpoint(MOVED_BOOKING, 'confirm'),
    operationId: 'confirmBooking',
    summary: 'Confirm a requested booking: a human act, through the two-phase confirmation.',
    description: `The first call answers 409 confirmation_required; the identical request re-sent with x-service-confirm is performed. X-Agent-Confirmed-By is stored as confirmedByClaim, a claim by the caller. The window is checked again: ${CLASH} A booking already confirmed answers replayed: true.`,
    idempotent: true,
    confirm: { effect: 'binding' },
    errors: ['not_found', 'invalid_body', 'conflict', 'confirmation_required'],
    handle: async ({ params, ctx, clients }) => {
      const write = await callUnary(clients.bookings, 'confirmBooking', { id: params.id }, ctx);
      return writeResult('booking', write.booking, write.meta);
    },
  }),
  defineEndpoint({
    ...moveEndpoint(MOVED_BOOKING, 'decline'),
    operationId: 'declineBooking',
    summary: 'Decline a requested booking with a reason the customer reads; the window is freed.',
    description: 'Declining twice answers replayed: true and keeps the first reason.',
    idempotent: true,
    body: z.strictObject({
      reason: z
        .string()
        .trim()
        .min(1)
        .max(1000)
        .describe('Written for the customer, who reads it: why the window cannot be served.'),
      opId: opIdField,
    }),
    errors: REASON_MOVE_ERRORS,
    handle: async ({ params, body, ctx, clients }) => {
      const write = await callUnary(
        clients.bookings,
        'declineBooking',
        { id: params.id, reason: body.reason },
        ctx,
      );
      return writeResult('booking', write.booking, write.meta);
    },
  }),
  defineEndpoint({
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
    errors: [],
    handle: async ({ ctx, clients }) => ({
      body: { policy: await callUnary(clients.bookings, 'getBookingPolicy', {}, ctx) },
    }),
  }),
];
