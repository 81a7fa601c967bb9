// Leads (spec: Lead, Lead status, "Leads and customers"). Served by crm.CrmService.
// Every endpoint of the group, in registry order: one file per path, named after it.
import { listLeads, createLead } from './leads.js';
import { getLead, updateLead } from './leads.id.js';
import { qualifyLead } from './leads.id.qualify.js';
import { convertLead } from './leads.id.convert.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const leadEndpoints: EndpointDef[] = [
  listLeads,
  getLead,
  createLead,
  updateLead,
  qualifyLead,
  convertLead,
];
