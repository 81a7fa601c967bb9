// The four billing gRPC services, above the proposals, invoices and mail folders they serve. Each
// handler map is derived (handlersOf): every RPC is the exported function of its name in those
// modules, given the billing deps (crm's store and the keyring that signs the customer's links).
import { type DomainHandlers, type GrpcServiceBinding, bindDomain, handlersOf } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import { billing } from '@fieldops/proto';
import type { BillingDeps } from './billing/billing-deps.ts';
import { openLinkKeyring, type LinkKeyring } from './client-links/link-keys.ts';
import * as invoiceLinks from './invoices/invoice-client.service.ts';
import * as invoices from './invoices/invoices.service.ts';
import * as mailOutbox from './mail/mail-outbox.service.ts';
import * as proposalLinks from './proposals/proposal-client.service.ts';
import * as proposals from './proposals/proposals.service.ts';

export interface BillingHandlers {
  proposals: DomainHandlers<billing.ProposalServiceService>;
  invoices: DomainHandlers<billing.InvoiceServiceService>;
  clientLinks: DomainHandlers<billing.ClientLinkServiceService>;
  mailOutbox: DomainHandlers<billing.MailOutboxServiceService>;
}

export function createBillingHandlers(store: DocumentStore, keys: LinkKeyring): BillingHandlers {
  const deps: BillingDeps = { store, keys };
  return {
    proposals: handlersOf(billing.ProposalServiceService, deps, proposals),
    invoices: handlersOf(billing.InvoiceServiceService, deps, invoices),
    clientLinks: handlersOf(billing.ClientLinkServiceService, deps, { ...proposalLinks, ...invoiceLinks }),
    mailOutbox: handlersOf(billing.MailOutboxServiceService, deps, mailOutbox),
  };
}

/** Opens the link keyring (crm collections must be defined first) and builds the handlers. */
export async function openBillingHandlers(store: DocumentStore): Promise<BillingHandlers> {
  return createBillingHandlers(store, await openLinkKeyring(store));
}

/** The four billing services as gRPC bindings for the crm server. */
export async function billingBindings(store: DocumentStore): Promise<GrpcServiceBinding[]> {
  const handlers = await openBillingHandlers(store);
  return [
    bindDomain(billing.ProposalServiceService, handlers.proposals),
    bindDomain(billing.InvoiceServiceService, handlers.invoices),
    bindDomain(billing.ClientLinkServiceService, handlers.clientLinks),
    bindDomain(billing.MailOutboxServiceService, handlers.mailOutbox),
  ];
}
