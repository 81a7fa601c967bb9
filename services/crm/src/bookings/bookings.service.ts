// Bookings: visit windows requested for a customer on a resource (a crew or equipment). Reads go
// straight to the store; every write is planned (booking-*.plan.ts) and applied through runWrite,
// which makes it exactly-once by key, dry-runnable, and atomic with its event and calendar op.
import { BOOKING_STATUSES, BOOKING_STATUS_MACHINE } from '@fieldops/contracts';
import { type RequestContext, AppError } from '@fieldops/kit';
import type { DocumentStore, Filter } from '@fieldops/kit/store';
import { requireTenantId, runWrite, withContextTenant, writeRpcOf } from '@fieldops/kit/write';
import { bookings } from '@fieldops/proto';
import { BOOKINGS } from '../collections.ts';
import { itemJson, listRpcOf } from '@fieldops/kit/domain';
import { planConfirmBooking } from './booking-confirm.plan.ts';
import { planCreateBooking } from './booking-create.plan.ts';
import { planDeclineBooking } from './booking-decline.plan.ts';
import { planSetBookingPolicy, readBookingPolicy } from './booking-policy.ts';
import { loadBooking } from './booking-transition.ts';
import { isoOf, parseInstant } from './booking-window.ts';
import { toBookingView } from './booking.model.ts';

/** A booking in items_json; one function for the process, so the store remembers its renderings. */
const BOOKING_JSON = itemJson(toBookingView, bookings.Booking);

/** The list's filters; from/to keep the bookings whose window overlaps [from, to). */
function bookingFilter(req: bookings.ListBookingsRequest): Filter {
  const filter: Filter = {};
  if (req.status !== undefined) {
    if (!BOOKING_STATUS_MACHINE.is(req.status)) {
      throw new AppError('field_invalid_enum', `status must be one of ${BOOKING_STATUSES.join(', ')}.`, {
        field: 'status',
        allowed: [...BOOKING_STATUSES],
      });
    }
    filter['status'] = req.status;
  }
  if (req.customerId) filter['customerId'] = req.customerId;
  if (req.resourceId) filter['resourceId'] = req.resourceId;
  const from = req.from ? parseInstant(req.from, 'from') : undefined;
  const to = req.to ? parseInstant(req.to, 'to') : undefined;
  if (from !== undefined && to !== undefined && to <= from) {
    throw new AppError('field_invalid', 'to must be after from.', { field: 'to' });
  }
  if (from !== undefined) filter['end'] = { $gt: isoOf(from) };
  if (to !== undefined) filter['start'] = { $lt: isoOf(to) };
  return filter;
}

/** In calendar order (earliest window first); keyset paging. */
export const listBookings = listRpcOf(
  BOOKINGS,
  { filter: bookingFilter, sort: { field: 'start', direction: 'asc' } },
  toBookingView,
  BOOKING_JSON,
);

export async function getBooking(
  store: DocumentStore,
  req: bookings.GetBookingRequest,
  ctx: RequestContext,
): Promise<bookings.BookingDetail> {
  const doc = await loadBooking(store, requireTenantId(ctx), req.id);
  return { booking: toBookingView(doc), legalTriggers: BOOKING_STATUS_MACHINE.legalTriggers(doc.status) };
}

export const createBooking = writeRpcOf('createBooking', 'booking', planCreateBooking);

export const confirmBooking = writeRpcOf('confirmBooking', 'booking', withContextTenant(planConfirmBooking));

export const declineBooking = writeRpcOf('declineBooking', 'booking', withContextTenant(planDeclineBooking));

export async function getBookingPolicy(
  store: DocumentStore,
  _req: bookings.GetBookingPolicyRequest,
  ctx: RequestContext,
): Promise<bookings.BookingPolicy> {
  return readBookingPolicy(store, requireTenantId(ctx));
}

export async function setBookingPolicy(
  store: DocumentStore,
  req: bookings.SetBookingPolicyRequest,
  ctx: RequestContext,
): Promise<bookings.BookingPolicy> {
  const tenantId = requireTenantId(ctx);
  const { result } = await runWrite(store, ctx, {
    operation: 'setBookingPolicy',
    fingerprint: req,
    plan: () => planSetBookingPolicy(store, tenantId, req, ctx),
  });
  return result;
}
