// One trigger of the booking status machine on a stored booking: the legal-move check (409 with
// legalTriggers), the "already there" answer (replayed, nothing stored), and the replace + event
// ops of a move. confirm and decline add what is their own (the window re-check, the reason).
import { BOOKING_STATUS_MACHINE, type BookingTrigger } from '@fieldops/contracts';
import { type RequestContext, AppError } from '@fieldops/kit';
import type { DocumentStore, WriteOp } from '@fieldops/kit/store';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { bookings } from '@fieldops/proto';
import { diffFields, compact, getOrNotFound } from '@fieldops/kit/domain';
import { BOOKINGS } from '../collections.ts';
import { eventEffect, updateEffect } from '../effects.ts';
import { emitCrmEvent, type CrmEventType } from '../events.ts';
import { BOOKING_CHANGE_FIELDS, toBookingView, type BookingDoc } from './booking.model.ts';

const EVENT_OF: Record<BookingTrigger, CrmEventType> = {
  confirm: 'booking.confirmed',
  decline: 'booking.declined',
};

export async function loadBooking(store: DocumentStore, tenantId: string, id: string): Promise<BookingDoc> {
  const doc = await getOrNotFound<BookingDoc>(store, BOOKINGS, tenantId, id, 'booking');
  return doc;
}

/** True when the trigger's destination is already reached; 409 conflict when it has no edge from here. */
export function alreadyThere(doc: BookingDoc, trigger: BookingTrigger): boolean {
  if (doc.status === BOOKING_STATUS_MACHINE.triggers[trigger].to) return true;
  if (BOOKING_STATUS_MACHINE.canFire(doc.status, trigger)) return false;
  const legal = BOOKING_STATUS_MACHINE.legalTriggers(doc.status);
  throw new AppError(
    'conflict',
    `Booking ${doc.id} is ${doc.status} and cannot be ${BOOKING_STATUS_MACHINE.triggers[trigger].to}; from ${doc.status} the legal triggers are: ${legal.join(', ') || 'none'}.`,
    { legalTriggers: legal, status: doc.status },
  );
}

/** A move already made: replayed, stores and emits nothing (spec, States and transitions 3). */
export function unchanged(doc: BookingDoc): WritePlan<bookings.Booking> {
  return unchangedPlan(
    toBookingView(doc),
    `Nothing would change: booking ${doc.id} is already ${doc.status}.`,
  );
}

/** The plan of `trigger` moving `doc` to its destination with `fields`, plus `extraOps` (the calendar). */
export function movePlan(
  ctx: RequestContext,
  doc: BookingDoc,
  move: {
    trigger: BookingTrigger;
    fields: Partial<BookingDoc>;
    at: string;
    willDo: string;
    extraOps?: WriteOp[];
  },
): WritePlan<bookings.Booking> {
  const next: BookingDoc = compact({
    ...doc,
    ...move.fields,
    status: BOOKING_STATUS_MACHINE.triggers[move.trigger].to,
    version: doc.version + 1,
    updatedAt: move.at,
  });
  const changes = diffFields(doc, next, BOOKING_CHANGE_FIELDS);
  const booking = toBookingView(next);
  const type = EVENT_OF[move.trigger];
  const data = { trigger: move.trigger, from: doc.status, to: next.status, changes, booking };
  return {
    ops: [
      { op: 'replace', collection: BOOKINGS, doc: next, expectedVersion: doc.version },
      ...(move.extraOps ?? []),
      emitCrmEvent(ctx, type, { kind: 'booking', id: doc.id }, data),
    ],
    result: booking,
    created: false,
    rehearsal: {
      willDo: move.willDo,
      effects: [updateEffect('booking', doc.id, changes), eventEffect(type, doc.id)],
    },
  };
}
