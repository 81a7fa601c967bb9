// One handler per BookingService RPC (bookings and the instant-book policy, served beside CrmService).
import type { DomainHandlers } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import type { bookings } from '@fieldops/proto';
import {
  confirmBooking,
  createBooking,
  declineBooking,
  getBooking,
  getBookingPolicy,
  listBookings,
  setBookingPolicy,
} from './bookings.service.js';

export type BookingHandlers = DomainHandlers<bookings.BookingServiceService>;

export function createBookingHandlers(store: DocumentStore): BookingHandlers {
  return {
    listBookings: (request, ctx) => listBookings(store, request, ctx),
    getBooking: (request, ctx) => getBooking(store, request, ctx),
    createBooking: (request, ctx) => createBooking(store, request, ctx),
    confirmBooking: (request, ctx) => confirmBooking(store, request, ctx),
    declineBooking: (request, ctx) => declineBooking(store, request, ctx),
    getBookingPolicy: (request, ctx) => getBookingPolicy(store, request, ctx),
    setBookingPolicy: (request, ctx) => setBookingPolicy(store, request, ctx),
  };
}
