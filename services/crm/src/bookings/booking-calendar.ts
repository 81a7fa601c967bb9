// One resource's calendar: which bookings keep a customer out of a window, the refusal that
// offers free windows instead, and the calendar document every window-taking write rewrites.
//
// Why the calendar document: two requests for the same window may be planned at the same moment,
// and each would see the window free. Each write that takes a window also replaces the resource's
// calendar document at the version it read, so only one of the two commits; the other is planned
// again by runWrite, now sees the winner's booking, and is refused.
import { BOOKING_HOLDING_STATUSES, bookingBlocks } from '@fieldops/contracts';
import { AppError } from '@fieldops/kit';
import type { Doc, DocumentStore, WriteOp } from '@fieldops/kit/store';
import { BOOKINGS, CALENDARS } from '../collections.ts';
import { alternativeSlots } from './booking-alternatives.ts';
import type { BookingDoc } from './booking.model.ts';
import { isoOf, minutesOf, windowOf, type Window } from './booking-window.ts';

/** How far around the wanted window alternatives are looked for. */
const SEARCH_MS = 7 * 24 * 60 * 60_000;

interface CalendarDoc extends Doc {
  resourceId: string;
  updatedAt: string;
}

export interface Claim {
  tenantId: string;
  resourceId: string;
  customerId: string;
  window: Window;
  /** The booking asking (when it exists already), which never clashes with itself. */
  bookingId?: string;
}

/** Holding bookings on the resource that overlap `range` and keep the claim's customer out. */
async function blockersIn(store: DocumentStore, claim: Claim, range: Window): Promise<BookingDoc[]> {
  const overlapping = await store.find<BookingDoc>(
    BOOKINGS,
    claim.tenantId,
    {
      resourceId: claim.resourceId,
      status: { $in: BOOKING_HOLDING_STATUSES },
      start: { $lt: isoOf(range.endMs) },
      end: { $gt: isoOf(range.startMs) },
    },
    { sort: { field: 'start', direction: 'asc' } },
  );
  return overlapping.filter(
    (doc) => doc.id !== claim.bookingId && bookingBlocks(doc.status, doc.customerId, claim.customerId),
  );
}

/**
 * Takes the claim's window: refuses it (409 conflict, the clashing bookings, free alternatives)
 * when it clashes, else returns the calendar op to commit with the write. The calendar is read
 * before the bookings, so a booking committed after that read moves the calendar's version and
 * this write's commit fails and is planned again.
 */
export async function takeWindow(
  store: DocumentStore,
  claim: Claim,
  nowMs: number,
  at: string,
): Promise<WriteOp> {
  const touch = await calendarTouch(store, claim.tenantId, claim.resourceId, at);
  await assertWindowFree(store, claim, nowMs);
  return touch;
}

/** Refuses the claim with 409 conflict, the clashing windows and free alternatives, if it clashes. */
async function assertWindowFree(store: DocumentStore, claim: Claim, nowMs: number): Promise<void> {
  const clashes = await blockersIn(store, claim, claim.window);
  if (clashes.length === 0) return;
  throw clashError(claim, clashes, await alternativesFor(store, claim, nowMs));
}

/** Free windows of the claim's length near it, on its resource. */
export async function alternativesFor(
  store: DocumentStore,
  claim: Claim,
  nowMs: number,
): Promise<{ start: string; end: string }[]> {
  const earliestMs = Math.max(nowMs, claim.window.startMs - SEARCH_MS);
  const untilMs = claim.window.endMs + SEARCH_MS;
  const busy = (await blockersIn(store, claim, { startMs: earliestMs, endMs: untilMs })).map(windowOf);
  return alternativeSlots(busy, claim.window, { earliestMs, untilMs }).map((slot) => ({
    start: isoOf(slot.startMs),
    end: isoOf(slot.endMs),
  }));
}

function clashError(claim: Claim, clashes: BookingDoc[], alternatives: { start: string; end: string }[]) {
  const offer = alternatives.length
    ? ` Free windows of the same length (${minutesOf(claim.window)} minutes): ${alternatives.map((slot) => slot.start).join(', ')}.`
    : ' No free window of the same length was found within a week of it.';
  return new AppError(
    'conflict',
    `The window ${isoOf(claim.window.startMs)} to ${isoOf(claim.window.endMs)} on resource ${claim.resourceId} is already held by booking ${clashes.map((doc) => doc.id).join(', ')}.${offer}`,
    {
      resourceId: claim.resourceId,
      clashes: clashes.map((doc) => ({ id: doc.id, start: doc.start, end: doc.end, status: doc.status })),
      alternatives,
    },
  );
}

/**
 * The op that rewrites the resource's calendar document at the version read now (inserting it
 * the first time): commit it with every write that takes a window on the resource.
 */
async function calendarTouch(
  store: DocumentStore,
  tenantId: string,
  resourceId: string,
  at: string,
): Promise<WriteOp> {
  const id = `cal_${resourceId}`;
  const current = await store.get<CalendarDoc>(CALENDARS, tenantId, id);
  if (!current) {
    return {
      op: 'insert',
      collection: CALENDARS,
      doc: { id, tenantId, version: 1, resourceId, updatedAt: at },
    };
  }
  return {
    op: 'replace',
    collection: CALENDARS,
    doc: { ...current, version: current.version + 1, updatedAt: at },
    expectedVersion: current.version,
  };
}
