// Who a proposal, an invoice or a booking message reaches, and how a confirmation shows it.
import { AppError } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { CUSTOMERS } from '../collections.ts';
import type { CustomerDoc } from '../customers/customer.model.ts';
import { getOrNotFound } from '@fieldops/kit/domain';

/** `j***@example.com`: enough for a person to recognise the recipient, not enough to harvest it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

export async function requireCustomer(
  store: DocumentStore,
  tenantId: string,
  customerId: string,
): Promise<CustomerDoc> {
  const customer = await getOrNotFound<CustomerDoc>(store, CUSTOMERS, tenantId, customerId, 'customer');
  return customer;
}

/**
 * The address a document goes to: the one set on it, else the customer's. Sending with none is
 * a conflict with the record's state (the caller can fix it with a PATCH or by giving the customer
 * an email), not a malformed request.
 */
export async function recipientOf(
  store: DocumentStore,
  doc: { tenantId: string; customerId: string; recipientEmail?: string; id: string },
  kind: string,
): Promise<string> {
  if (doc.recipientEmail) return doc.recipientEmail;
  const customer = await requireCustomer(store, doc.tenantId, doc.customerId);
  if (customer.email) return customer.email;
  throw new AppError(
    'conflict',
    `${kind} ${doc.id} has no recipient: set recipientEmail on the draft, or give customer ${customer.id} an email.`,
    { field: 'recipientEmail' },
  );
}
