// Why: proposals and invoices run on the same two things, crm's store and the keyring that signs
// the customer's link pages; the handlers (billing-services.ts) build them once for both.
import type { DocumentStore } from '@fieldops/kit/store';
import type { LinkKeyring } from '../client-links/link-keys.ts';

export interface BillingDeps {
  store: DocumentStore;
  keys: LinkKeyring;
}
