// The CrmService RPCs as plain async functions of (request, ctx). The gRPC binding is one line
// (bindService(crm.CrmServiceService, handlers)); tests call the same functions directly.
import type { DocumentStore } from '@fieldops/kit/store/port';
import type { crm } from '@fieldops/proto';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from './customers/customers.service.js';
import { createLead, getLead, listLeads, updateLead } from './leads/leads.service.js';
import type { DomainHandlers } from '@fieldops/kit/grpc/domain-binding';

/** One handler per CrmService RPC, typed from the generated service definition. */
export type CrmHandlers = DomainHandlers<crm.CrmServiceService>;

export function createCrmHandlers(store: DocumentStore): CrmHandlers {
  return {
    listLeads: (request, ctx) => listLeads(store, request, ctx),
    getLead: (request, ctx) => getLead(store, request, ctx),
    createLead: (request, ctx) => createLead(store, request, ctx),
    updateLead: (request, ctx) => updateLead(store, request, ctx),
    listCustomers: (request, ctx) => listCustomers(store, request, ctx),
    getCustomer: (request, ctx) => getCustomer(store, request, ctx),
    createCustomer: (request, ctx) => createCustomer(store, request, ctx),
    updateCustomer: (request, ctx) => updateCustomer(store, request, ctx),
  };
}
