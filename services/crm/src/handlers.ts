// The CrmService (and DealService) RPCs as plain async functions of (request, ctx). The gRPC
// binding is one line per service (server.ts); tests call the same functions directly.
import type { DocumentStore } from '@fieldops/kit/store';
import type { crm, deals } from '@fieldops/proto';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from './customers/customers.service.js';
import {
  createLead,
  getLead,
  listLeads,
  updateLead,
  convertLead,
  qualifyLead,
} from './leads/leads.service.js';
import type { DomainHandlers } from '@fieldops/kit/grpc';
import { advanceDeal, createDeal, getDeal, listDeals, loseDeal } from './deals/deals.service.js';
import type { PersonaReader } from './qualification/persona-reader.port.js';
import { personaReaderFromEnv } from './qualification/persona-reader.config.js';

/** One handler per CrmService RPC, typed from the generated service definition. */
export type CrmHandlers = DomainHandlers<crm.CrmServiceService>;

/** What the handlers need besides the store; each has a default for the embedded platform. */
export interface CrmDeps {
  /** Reads personas for POST /leads/:id/qualify; default: FIELDOPS_LEAD_QUALIFIER (rules). */
  personaReader?: PersonaReader;
}

export function createCrmHandlers(store: DocumentStore, deps: CrmDeps = {}): CrmHandlers {
  const personaReader = deps.personaReader ?? personaReaderFromEnv();
  return {
    listLeads: (request, ctx) => listLeads(store, request, ctx),
    getLead: (request, ctx) => getLead(store, request, ctx),
    createLead: (request, ctx) => createLead(store, request, ctx),
    updateLead: (request, ctx) => updateLead(store, request, ctx),
    convertLead: (request, ctx) => convertLead(store, request, ctx),
    qualifyLead: (request, ctx) => qualifyLead(store, personaReader, request, ctx),
    listCustomers: (request, ctx) => listCustomers(store, request, ctx),
    getCustomer: (request, ctx) => getCustomer(store, request, ctx),
    createCustomer: (request, ctx) => createCustomer(store, request, ctx),
    updateCustomer: (request, ctx) => updateCustomer(store, request, ctx),
  };
}

export { createBookingHandlers } from './bookings/booking.handlers.js';
export type { BookingHandlers } from './bookings/booking.handlers.js';

/** One handler per DealService RPC (the deal pipeline, served beside CrmService). */
export type DealHandlers = DomainHandlers<deals.DealServiceService>;

export function createDealHandlers(store: DocumentStore): DealHandlers {
  return {
    listDeals: (request, ctx) => listDeals(store, request, ctx),
    getDeal: (request, ctx) => getDeal(store, request, ctx),
    createDeal: (request, ctx) => createDeal(store, request, ctx),
    advanceDeal: (request, ctx) => advanceDeal(store, request, ctx),
    loseDeal: (request, ctx) => loseDeal(store, request, ctx),
  };
}
