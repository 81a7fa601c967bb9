// The CrmService (and DealService) RPCs as plain async functions of (request, ctx), derived from
// the service modules (handlersOf: each RPC is the exported function of its name, given the
// store). The gRPC binding is one line per service (server.ts); tests call the same functions.
import type { DocumentStore } from '@fieldops/kit/store';
import { crm, deals } from '@fieldops/proto';
import * as customers from './customer-service/customers.service.ts';
import * as leads from './leads/leads.service.ts';
import { handlersOf, type DomainHandlers } from '@fieldops/kit/grpc';
import * as dealsService from './deals/deals.service.ts';
import type { PersonaReader } from './qualification/persona-reader.port.ts';
import { personaReaderFromEnv } from './qualification/persona-reader.config.ts';

/** One handler per CrmService RPC, typed from the generated service definition. */
export type CrmHandlers = DomainHandlers<crm.CrmServiceService>;

/** What the handlers need besides the store; each has a default for the embedded platform. */
export interface CrmDeps {
  /** Reads personas for POST /leads/:id/qualify; default: FIELDOPS_LEAD_QUALIFIER (rules). */
  personaReader?: PersonaReader;
}

export function createCrmHandlers(store: DocumentStore, deps: CrmDeps = {}): CrmHandlers {
  const personaReader = deps.personaReader ?? personaReaderFromEnv();
  return handlersOf(
    crm.CrmServiceService,
    store,
    { ...leads, ...customers },
    { qualifyLead: (request, ctx) => leads.qualifyLead(store, personaReader, request, ctx) },
  );
}

export { createBookingHandlers } from './bookings/booking.handlers.ts';
export type { BookingHandlers } from './bookings/booking.handlers.ts';

/** One handler per DealService RPC (the deal pipeline, served beside CrmService). */
export type DealHandlers = DomainHandlers<deals.DealServiceService>;

export function createDealHandlers(store: DocumentStore): DealHandlers {
  return handlersOf(deals.DealServiceService, store, dealsService);
}
