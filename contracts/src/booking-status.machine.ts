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

export const BOOKING_STATUSES = ['requested', 'confirmed', 'declined'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const BOOKING_TRIGGERS = ['confirm', 'decline'] as const;
export type BookingTrigger = (typeof BOOKING_TRIGGERS)[number];

export const BOOKING_STATUS_MACHINE = {
  initial: 'requested',
  /** Each trigger: the statuses it may fire from, and the one status it leads to. */
  triggers: {
    confirm: { from: ['requested'], to: 'confirmed' },
    decline: { from: ['requested'], to: 'declined' },
  },
  /**
   * Statuses that occupy their window on their resource, and against whom. A requested booking
   * holds it against other customers (the same customer may ask for overlapping windows, say two
   * options for one visit; confirming one of them then refuses the other); a confirmed one holds
   * it against everyone (a crew is in one place at a time).
   */
  holds: { requested: 'other_customers', confirmed: 'everyone' },
} as const satisfies {
  initial: BookingStatus;
  triggers: Record<BookingTrigger, { from: readonly BookingStatus[]; to: BookingStatus }>;
  holds: Partial<Record<BookingStatus, 'other_customers' | 'everyone'>>;
};

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

export const isBookingStatus = (value: string): value is BookingStatus =>
  (BOOKING_STATUSES as readonly string[]).includes(value);

/** Whether `trigger` has an edge out of `status`. */
export const canFireBooking = (status: string, trigger: BookingTrigger): boolean =>
  (BOOKING_STATUS_MACHINE.triggers[trigger].from as readonly string[]).includes(status);

/** The triggers with an edge out of `status`, in declaration order. */
export const bookingLegalTriggers = (status: string): BookingTrigger[] =>
  BOOKING_TRIGGERS.filter((trigger) => canFireBooking(status, trigger));

/** The machine as status → reachable statuses (the shape x-state-machine publishes as `moves`). */
export const BOOKING_STATUS_MOVES: Readonly<Record<BookingStatus, readonly BookingStatus[]>> =
  Object.fromEntries(
    BOOKING_STATUSES.map((status) => [
      status,
      bookingLegalTriggers(status).map((trigger) => BOOKING_STATUS_MACHINE.triggers[trigger].to),
    ]),
  ) as Record<BookingStatus, BookingStatus[]>;
