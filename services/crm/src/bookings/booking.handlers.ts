// One handler per BookingService RPC (bookings and the instant-book policy, served beside CrmService),
// derived from the service module: each RPC is its exported function of the same name.
import { handlersOf, type DomainHandlers } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import { bookings } from '@fieldops/proto';
import * as bookingsService from './bookings.service.ts';

export type BookingHandlers = DomainHandlers<bookings.BookingServiceService>;

export function createBookingHandlers(store: DocumentStore): BookingHandlers {
  return handlersOf(bookings.BookingServiceService, store, bookingsService);
}
