// Bookings (ENDPOINTS rows 60–64; spec "Operations named but with their shape left open" 4, and
// "What the service does" 7). Served by crm.BookingService. A request holds its window; a person
// confirms it through the two-phase confirmation, or the tenant's recorded instant-book policy
// confirms it at creation; it is never confirmed by a rule or a schedule. GET /booking-policy
// lets a caller read that policy; only a member in the portal records it.
// Every endpoint of the group, in registry order: one file per path, named after it.
import { listBookings, createBooking } from './bookings.js';
import { getBooking } from './bookings.id.js';
import { confirmBooking } from './bookings.id.confirm.js';
import { declineBooking } from './bookings.id.decline.js';
import { getBookingPolicy } from './booking-policy.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const bookingEndpoints: EndpointDef[] = [
  listBookings,
  getBooking,
  createBooking,
  confirmBooking,
  declineBooking,
  getBookingPolicy,
];
