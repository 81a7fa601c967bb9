import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { requireTenantId, type WritePlan } from '@fieldops/kit/write';
import type { bookings } from '@fieldops/proto';
import { actorOf, cleanText } from '@fieldops/kit/domain';
import { alternativesFor, takeWindow, type Claim } from './booking-calendar.ts';
import { alreadyThere, loadBooking, movePlan, unchanged } from './booking-transition.ts';
import { windowOf } from './booking-window.ts';

export async function planConfirmBooking(
  store: DocumentStore,
  req: bookings.ConfirmBookingRequest,
  ctx: RequestContext,
): Promise<WritePlan<bookings.Booking>> {
  const tenantId = requireTenantId(ctx);
  const doc = await loadBooking(store, tenantId, req.id);
  if (alreadyThere(doc, 'confirm')) return unchanged(doc);
  const nowMs = Date.now();
  const at = nowIso();
  const claim: Claim = {
    tenantId,
    resourceId: doc.resourceId,
    customerId: doc.customerId,
    window: windowOf(doc),
    bookingId: doc.id,
  };
  if (claim.window.startMs <= nowMs) throw await startedError(store, claim, nowMs);
  const touch = await takeWindow(store, claim, nowMs, at);
  const claimed = cleanText(ctx.agent?.confirmedBy);
  return movePlan(ctx, doc, {
    trigger: 'confirm',
    at,
    fields: {
      confirmedVia: 'confirmation',
      confirmedAt: at,
      confirmedByClaim: claimed,
      confirmedByPrincipal: actorOf(ctx),
    },
    extraOps: [touch],
    willDo: `Confirm booking ${doc.id}: a visit to customer ${doc.customerId} from ${doc.start} to ${doc.end} on resource ${doc.resourceId}, which then holds that window against everyone.${claimed ? ` Recorded as authorised by "${claimed}" (the caller's claim).` : ''}`,
  });
}

/** A window that has begun cannot be confirmed; free windows of the same length are offered. */
async function startedError(store: DocumentStore, claim: Claim, nowMs: number): Promise<AppError> {
  const alternatives = await alternativesFor(store, claim, nowMs);
  return new AppError(
    'conflict',
    `Booking ${claim.bookingId} was for a window that has already begun; it can only be declined, or a new request made for one of the alternatives.`,
    { resourceId: claim.resourceId, clashes: [], alternatives },
  );
}
