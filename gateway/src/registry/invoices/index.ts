// Invoices (spec: "Proposals and invoices", Operations left open 2; ENDPOINTS rows 55–59).
// Served by crm.InvoiceService. No endpoint pays or refunds (spec: those are human acts): payments
// are recorded by the platform's own side (a member in the portal, the payment provider).
// Every endpoint of the group, in registry order: one file per path, named after it.
import { listInvoices, createInvoice } from './invoices.js';
import { getInvoice, updateInvoice } from './invoices.id.js';
import { issueInvoice } from './invoices.id.issue.js';
import { voidInvoice } from './invoices.id.void.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const invoiceEndpoints: EndpointDef[] = [
  listInvoices,
  getInvoice,
  createInvoice,
  updateInvoice,
  issueInvoice,
  voidInvoice,
];
