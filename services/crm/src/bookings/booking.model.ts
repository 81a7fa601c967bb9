// A booking as stored, and as the API shows it.
import type { Complete } from '@fieldops/kit/domain';
import type { BookingStatus } from '@fieldops/contracts';
import type { Doc } from '@fieldops/kit/store';
import type { bookings } from '@fieldops/proto';

/** How a booking came to be confirmed: a person through the confirmation flow, or the policy. */
export type ConfirmedVia = 'confirmation' | 'instant_book_policy';

export interface BookingDoc extends Doc {
  customerId: string;
  dealId?: string;
  /** The crew or equipment the visit needs; windows clash only on the same resource. */
  resourceId: string;
  /** ISO 8601 UTC as toISOString writes it, so string order is time order (the clash query). */
  start: string;
  end: string;
  status: BookingStatus;
  notes?: string;
  confirmedVia?: ConfirmedVia;
  confirmedAt?: string;
  /** X-Agent-Confirmed-By as sent: who the caller says authorised it. A claim, never proof. */
  confirmedByClaim?: string;
  /** The member or token whose confirmed request performed it. */
  confirmedByPrincipal?: string;
  /** The instant-book policy version that confirmed it. */
  policyVersion?: number;
  declinedAt?: string;
  /** Written for the customer, who reads it. */
  declineReason?: string;
  createdAt: string;
  updatedAt: string;
  opId?: string;
}

/** Fields whose changes a rehearsal and an event report. */
export const BOOKING_CHANGE_FIELDS = [
  'customerId',
  'dealId',
  'resourceId',
  'start',
  'end',
  'status',
  'notes',
  'confirmedVia',
  'confirmedByClaim',
  'confirmedByPrincipal',
  'policyVersion',
  'declineReason',
] as const satisfies readonly (keyof BookingDoc & string)[];

export function toBookingView(doc: BookingDoc): bookings.Booking {
  return {
    id: doc.id,
    customerId: doc.customerId,
    dealId: doc.dealId,
    resourceId: doc.resourceId,
    start: doc.start,
    end: doc.end,
    status: doc.status,
    notes: doc.notes,
    confirmedVia: doc.confirmedVia,
    confirmedAt: doc.confirmedAt,
    confirmedByClaim: doc.confirmedByClaim,
    confirmedByPrincipal: doc.confirmedByPrincipal,
    policyVersion: doc.policyVersion,
    declinedAt: doc.declinedAt,
    declineReason: doc.declineReason,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    opId: doc.opId,
  } satisfies Complete<bookings.Booking>;
}
