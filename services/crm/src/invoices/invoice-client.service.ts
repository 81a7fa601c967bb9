// The customer's payment page, reached through the link the issue email carries. Opening it only
// reads: paying happens with the payment provider, whose confirmation the platform records
// (invoice-payment.plan.ts). A voided invoice's link is retired and answers 404 like any dead link.
import { claimsOf, assertCurrentLink } from '../client-links/client-context.ts';
import type { LinkKeyring } from '../client-links/link-keys.ts';
import type { DocumentStore } from '@fieldops/kit/store';
import type { billing } from '@fieldops/proto';
import { INVOICES } from '../collections.ts';
import { toClientInvoice, type InvoiceDoc } from './invoice.model.ts';

export async function openInvoice(
  deps: { store: DocumentStore; keys: LinkKeyring },
  req: billing.OpenLinkRequest,
): Promise<billing.ClientInvoice> {
  const claims = claimsOf(deps.keys, req.token, 'invoice');
  const doc = await deps.store.get<InvoiceDoc>(INVOICES, claims.tenantId, claims.id);
  assertCurrentLink(claims, doc);
  return toClientInvoice(doc as InvoiceDoc);
}
