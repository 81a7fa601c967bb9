// Field limits of the records crm keeps (leads, customers, deals, bookings, proposals, invoices).
// How the limits are read and re-checked: ./index.ts.
import { EMAIL_MAX, ID_REF_MAX } from './shared.ts';

/** Who a lead or a customer is and how to reach them: the same limits on both. */
const CONTACT = { name: 200, email: EMAIL_MAX, phone: 50 } as const;

/** Leads (POST /leads, PATCH /leads/:id): maximum characters per field, after trimming. */
export const LEAD_FIELD_LIMITS = { ...CONTACT, message: 5000, source: 100, ownerId: ID_REF_MAX } as const;

/** Customers (POST /customers, PATCH /customers/:id): maximum characters per field, after trimming. */
export const CUSTOMER_FIELD_LIMITS = { ...CONTACT, company: 200, source: 100, ownerId: ID_REF_MAX } as const;

/** The customer and deal a booking or a billing document belongs to. */
const CUSTOMER_AND_DEAL = { customerId: ID_REF_MAX, dealId: ID_REF_MAX } as const;

/** A booking window's start and end (ISO 8601 instants, with or without an offset). */
export const BOOKING_INSTANT_MAX = 40;

/**
 * Bookings (POST /bookings): maximum characters per field, after trimming. The resource id's own
 * pattern (letters, digits, _ . : -) is the service's, and allows the same length.
 */
export const BOOKING_FIELD_LIMITS = {
  start: BOOKING_INSTANT_MAX,
  end: BOOKING_INSTANT_MAX,
  ...CUSTOMER_AND_DEAL,
  resourceId: ID_REF_MAX,
  notes: 2000,
} as const;

/** The longest booking decline reason (POST /bookings/:id/decline): a few sentences a customer reads. */
export const BOOKING_DECLINE_REASON_MAX = 1000;

/** Deals (POST /deals): maximum characters per field, after trimming. */
export const DEAL_FIELD_LIMITS = {
  customerId: ID_REF_MAX,
  contactId: ID_REF_MAX,
  expectedCloseAt: 40,
} as const;

/** The longest lost reason kept (POST /deals/:id/lose). */
export const DEAL_LOSE_REASON_MAX = 2000;

/**
 * Proposals and invoices (POST and PATCH /proposals, /invoices): maximum characters per field,
 * after trimming. proposalId is an invoice's only.
 */
export const BILLING_DOCUMENT_FIELD_LIMITS = {
  ...CUSTOMER_AND_DEAL,
  proposalId: ID_REF_MAX,
  title: 200,
  notes: 5000,
  recipientEmail: EMAIL_MAX,
} as const;

/** A billing document's send note and its withdraw or void reason. */
export const BILLING_REASON_MAX = 2000;

/** A billing document's priced lines: how many, and the bounds of each line's fields. */
export const BILLING_LINE_LIMITS = {
  maxLines: 100,
  description: 500,
  /** Quantities carry at most three decimals (2.5 hours, 0.125 km²). */
  maxQuantity: 1_000_000,
  /** 100 million in the currency's major unit per unit; anything larger is a typo. */
  maxUnitPriceCents: 10_000_000_000,
  /** 10000 basis points = 100 %. */
  maxTaxRateBps: 10_000,
} as const;
