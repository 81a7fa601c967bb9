// Planning POST /bookings: a request in state requested that holds its window on its resource
// against other customers, or, when the tenant's recorded instant-book policy covers it, a
// booking confirmed by that policy at once. Either way the window is checked first and a clash is
// refused with free alternatives.
import { BOOKING_FIELD_LIMITS, BOOKING_STATUS_MACHINE } from '@fieldops/contracts';
import { checkLengths, setFields, cleanText, compact, getOrNotFound } from '@fieldops/kit/domain';
import { type RequestContext, AppError, newId, nowIso } from '@fieldops/kit';
import type { DocumentStore, WriteOp } from '@fieldops/kit/store';
import type { WritePlan } from '@fieldops/kit/write';
import type { bookings } from '@fieldops/proto';
import { requireCustomer } from '../billing/recipient.ts';
import { BOOKINGS, DEALS } from '../collections.ts';
import type { DealDoc } from '../deals/deal.model.ts';
import { createEffect, eventEffect } from '../effects.ts';
import { emitCrmEvent } from '../events.ts';
import { takeWindow } from './booking-calendar.ts';
import { policyCovers, readBookingPolicy } from './booking-policy.ts';
import { isoOf, requestedWindow } from './booking-window.ts';
import { BOOKING_CHANGE_FIELDS, toBookingView, type BookingDoc } from './booking.model.ts';

export const DEFAULT_RESOURCE = 'default';
/** Resource ids name a crew or a piece of equipment; they also name its calendar document. */
export const RESOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;

function resourceOf(value: string | undefined): string {
  const resourceId = cleanText(value) ?? DEFAULT_RESOURCE;
  if (RESOURCE_ID.test(resourceId)) return resourceId;
  throw new AppError(
    'field_invalid',
    'resourceId names a crew or piece of equipment: 1 to 100 letters, digits, _ . : or -, starting with a letter or digit.',
    { field: 'resourceId' },
  );
}

/** The deal the visit is for must be the customer's own. */
async function checkDeal(store: DocumentStore, tenantId: string, customerId: string, dealId?: string) {
  if (!dealId) return;
  const deal = await getOrNotFound<DealDoc>(store, DEALS, tenantId, dealId, 'deal');
  if (deal.customerId !== customerId) {
    throw new AppError('field_invalid', `Deal ${dealId} belongs to another customer than ${customerId}.`, {
      field: 'dealId',
    });
  }
}

export async function planCreateBooking(
  store: DocumentStore,
  tenantId: string,
  req: bookings.CreateBookingRequest,
  ctx: RequestContext,
): Promise<WritePlan<bookings.Booking>> {
  checkLengths(BOOKING_FIELD_LIMITS, req);
  const customerId = cleanText(req.customerId);
  if (!customerId) {
    throw new AppError('field_required', 'customerId is required: the customer the visit is for.', {
      field: 'customerId',
    });
  }
  const nowMs = Date.now();
  const window = requestedWindow(req.start, req.end, nowMs);
  const resourceId = resourceOf(req.resourceId);
  const notes = cleanText(req.notes);
  const dealId = cleanText(req.dealId);
  const customer = await requireCustomer(store, tenantId, customerId);
  await checkDeal(store, tenantId, customerId, dealId);
  const now = nowIso();
  const touch = await takeWindow(store, { tenantId, resourceId, customerId, window }, nowMs, now);
  const policy = await readBookingPolicy(store, tenantId);
  const instant = policyCovers(policy, window, nowMs);
  const doc: BookingDoc = compact({
    id: newId('bkg'),
    tenantId,
    version: 1,
    customerId,
    dealId,
    resourceId,
    start: isoOf(window.startMs),
    end: isoOf(window.endMs),
    status: instant ? BOOKING_STATUS_MACHINE.triggers.confirm.to : BOOKING_STATUS_MACHINE.initial,
    notes,
    ...(instant
      ? { confirmedVia: 'instant_book_policy' as const, confirmedAt: now, policyVersion: policy.version }
      : {}),
    createdAt: now,
    updatedAt: now,
    opId: ctx.idempotencyKey || cleanText(req.opId),
  });
  const booking = toBookingView(doc);
  const about = { kind: 'booking', id: doc.id };
  const events: WriteOp[] = [emitCrmEvent(ctx, 'booking.requested', about, { booking })];
  if (instant)
    events.push(emitCrmEvent(ctx, 'booking.confirmed', about, { booking, via: 'instant_book_policy' }));
  const when = `${doc.start} to ${doc.end} on resource ${resourceId}`;
  return {
    ops: [{ op: 'insert', collection: BOOKINGS, doc }, touch, ...events],
    result: booking,
    created: true,
    rehearsal: {
      willDo: instant
        ? `Book a visit for customer "${customer.name}" from ${when}; the tenant's instant-book policy (version ${policy.version}) confirms it at once.`
        : `Request a visit for customer "${customer.name}" from ${when}; it holds the window against other customers until a person confirms or declines it.`,
      effects: [
        createEffect('booking', doc.id, setFields(doc, BOOKING_CHANGE_FIELDS)),
        eventEffect('booking.requested', doc.id),
        ...(instant ? [eventEffect('booking.confirmed', doc.id)] : []),
      ],
    },
  };
}
