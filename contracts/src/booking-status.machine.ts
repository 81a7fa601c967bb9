// The booking status machine, as data. The spec: a request in state requested holds its slot
// against other customers; confirming is a human act (the two-phase confirmation) or the tenant's
// own recorded instant-book policy, never a rule or a schedule; confirming re-checks the window;
// declining carries a reason the customer reads. Ours:
// - confirm: requested → confirmed (POST /bookings/:id/confirm, or at creation when the tenant's
//   instant-book policy, recorded by a member in the portal, covers the request).
// - decline: requested → declined (POST /bookings/:id/decline with the reason).
// - confirmed and declined are final here; moving or cancelling a confirmed visit is not part of
//   this version.
// Windows are per resource (a crew or a piece of equipment): bookings on different resources
// never clash.

import { defineMachine, type StateOf, type TriggerOf } from './define-machine.ts';

export const BOOKING_STATUS_MACHINE = defineMachine(
  {
    states: ['requested', 'confirmed', 'declined'],
    initial: 'requested',
    triggers: {
      confirm: { from: ['requested'], to: 'confirmed' },
      decline: { from: ['requested'], to: 'declined' },
    },
  },
  {
    /**
     * Statuses that occupy their window on their resource, and against whom. A requested booking
     * holds it against other customers (the same customer may ask for overlapping windows, say two
     * options for one visit; confirming one of them then refuses the other); a confirmed one holds
     * it against everyone (a crew is in one place at a time).
     */
    holds: { requested: 'other_customers', confirmed: 'everyone' },
  },
);
export type BookingStatus = StateOf<typeof BOOKING_STATUS_MACHINE>;
export type BookingTrigger = TriggerOf<typeof BOOKING_STATUS_MACHINE>;
export const BOOKING_STATUSES = BOOKING_STATUS_MACHINE.states;

/** Statuses whose booking occupies its window (see BOOKING_STATUS_MACHINE.holds). */
export const BOOKING_HOLDING_STATUSES = Object.keys(BOOKING_STATUS_MACHINE.holds) as BookingStatus[];

/**
 * Whether a booking in `status` for `holderCustomerId` keeps `customerId` out of its window: a
 * request keeps other customers out, a confirmed visit keeps everyone out.
 */
export function bookingBlocks(status: string, holderCustomerId: string, customerId: string): boolean {
  const holds = (BOOKING_STATUS_MACHINE.holds as Partial<Record<string, string>>)[status];
  if (holds === 'everyone') return true;
  return holds === 'other_customers' && holderCustomerId !== customerId;
}
