// The crm service's collections in its own document store. Every query the service makes is
// listed here as an index, so the MongoDB adapter can build them and nothing scans a tenant.
import type { CollectionSpec, DocumentStore } from '@fieldops/kit/store';
import { idempotencyCollectionSpec } from '@fieldops/kit/write';

export const LEADS = 'leads';
export const CUSTOMERS = 'customers';
export const ACTIVITY = 'activity';
export const INBOUND_MESSAGES = 'inbound_messages';
export const DEALS = 'deals';

// Proposals, invoices, bookings and the mail they send (issue 3, billing).
export const PROPOSALS = 'proposals';
export const INVOICES = 'invoices';
export const BOOKINGS = 'bookings';
/** One document per tenant: the instant-book policy a member recorded. */
export const BOOKING_POLICIES = 'booking_policies';
/** One document per resource of a tenant, rewritten by every booking write that takes a window. */
export const CALENDARS = 'calendars';
/** One document per tenant: the last invoice number issued. */
export const INVOICE_COUNTERS = 'invoice_counters';
export const OUTBOUND_MESSAGES = 'outbound_messages';
/** Keys that sign customer links, in the platform namespace. */
export const LINK_KEYS = 'link_keys';

export const CRM_COLLECTIONS: readonly CollectionSpec[] = [
  {
    name: LEADS,
    // openEmailKey is the normalized email, set only while the lead is open: the sparse unique
    // key allows one open lead per email per tenant, and any number of closed ones.
    unique: [['openEmailKey']],
    indexes: [['createdAt'], ['status', 'createdAt'], ['ownerId', 'createdAt']],
  },
  {
    name: CUSTOMERS,
    // emailKey finds the customer a new lead matches; customers may share an email, so not unique.
    indexes: [['createdAt'], ['stage', 'createdAt'], ['emailKey', 'createdAt']],
  },
  { name: ACTIVITY, indexes: [['subjectId', 'at']] },
  { name: INBOUND_MESSAGES, indexes: [['leadId', 'receivedAt']] },
  {
    name: DEALS,
    // The list filters by stage and customer (open is a set of stages); the pipeline summary
    // counts per stage and sums the priced open deals (valueCents > 0).
    indexes: [['createdAt'], ['stage', 'createdAt'], ['customerId', 'createdAt'], ['stage', 'valueCents']],
  },
  // Proposals and invoices: lists filter by status, customer or deal; the customer read and the
  // money rollup read by customer.
  {
    name: PROPOSALS,
    indexes: [['createdAt'], ['status', 'createdAt'], ['customerId', 'createdAt'], ['dealId', 'createdAt']],
  },
  {
    name: INVOICES,
    indexes: [['createdAt'], ['status', 'createdAt'], ['customerId', 'createdAt'], ['dealId', 'createdAt']],
  },
  // Bookings: the clash check reads the holding bookings whose window overlaps (status, start).
  {
    name: BOOKINGS,
    indexes: [
      ['createdAt'],
      ['status', 'createdAt'],
      ['customerId', 'createdAt'],
      ['status', 'start'],
      ['start'],
      // The clash check and the calendar of one resource (crew or equipment).
      ['resourceId', 'status', 'start'],
      ['resourceId', 'start'],
      ['customerId', 'start'],
    ],
  },
  { name: BOOKING_POLICIES },
  { name: CALENDARS },
  { name: INVOICE_COUNTERS },
  { name: OUTBOUND_MESSAGES, indexes: [['createdAt'], ['aboutId', 'createdAt']] },
  { name: LINK_KEYS },
  idempotencyCollectionSpec,
];

export async function defineCrmCollections(store: DocumentStore): Promise<void> {
  for (const spec of CRM_COLLECTIONS) await store.define(spec);
}
