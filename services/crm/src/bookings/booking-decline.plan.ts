// Planning POST /bookings/:id/decline: the reason is written for the customer, who reads it, so
// it is required, trimmed and length-limited. Declining frees the window. Declining twice keeps
// the first reason (replayed).
import { BOOKING_DECLINE_REASON_MAX } from '@fieldops/contracts';
import { checkLengths } from '@fieldops/kit/domain';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { requireTenantId, type WritePlan } from '@fieldops/kit/write';
import type { bookings } from '@fieldops/proto';
import { alreadyThere, loadBooking, movePlan, unchanged } from './booking-transition.ts';

export function declineReason(value: string | undefined): string {
  const reason = value?.trim() ?? '';
  if (!reason) {
    throw new AppError(
      'field_required',
      'reason is required to decline a booking: write a sentence the customer will read, such as why the window cannot be served.',
      { field: 'reason' },
    );
  }
  checkLengths({ reason: BOOKING_DECLINE_REASON_MAX }, { reason });
  return reason;
}

export async function planDeclineBooking(
  store: DocumentStore,
  req: bookings.DeclineBookingRequest,
  ctx: RequestContext,
): Promise<WritePlan<bookings.Booking>> {
  const reason = declineReason(req.reason);
  const doc = await loadBooking(store, requireTenantId(ctx), req.id);
  if (alreadyThere(doc, 'decline')) return unchanged(doc);
  const at = nowIso();
  return movePlan(ctx, doc, {
    trigger: 'decline',
    at,
    fields: { declinedAt: at, declineReason: reason },
    willDo: `Decline booking ${doc.id} (${doc.start} to ${doc.end} on resource ${doc.resourceId}) with a reason the customer reads, freeing the window.`,
  });
}
