// Customers (spec: Customer, Customer stage, "Leads and customers"). Served by crm.CrmService.
// Every endpoint of the group, in registry order: one file per path, named after it.
import { listCustomers, createCustomer } from './customers.js';
import { getCustomer, updateCustomer } from './customers.id.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const customerEndpoints: EndpointDef[] = [listCustomers, getCustomer, createCustomer, updateCustomer];
