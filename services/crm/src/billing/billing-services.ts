import { type DomainHandlers, type GrpcServiceBinding, bindDomain } from '@fieldops/kit/grpc';
import type { DocumentStore } from '@fieldops/kit/store';
import { billing } from '@fieldops/proto';
import { openLinkKeyring, type LinkKeyring } from '../client-links/link-keys.js';
import { openInvoice } from '../invoices/invoice-client.service.js';
import {
  createInvoice,
  getInvoice,
  issueInvoice,
  listInvoices,
  recordPayment,
  updateInvoice,
  voidInvoice,
} from '../invoices/invoices.service.js';
import { listOutboundMessages } from '../mail/mail-outbox.service.js';
import { declineProposal, openProposal, signProposal } from '../proposals/proposal-client.service.js';
import {
  createProposal,
  getProposal,
  listProposals,
  sendProposal,
  updateProposal,
  withdrawProposal,
} from '../proposals/proposals.service.js';

export interface BillingHandlers {
  proposals: DomainHandlers<billing.ProposalServiceService>;
  invoices: DomainHandlers<billing.InvoiceServiceService>;
  clientLinks: DomainHandlers<billing.ClientLinkServiceService>;
  mailOutbox: DomainHandlers<billing.MailOutboxServiceService>;
}

export function createBillingHandlers(store: DocumentStore, keys: LinkKeyring): BillingHandlers {
  const deps = { store, keys };
  return {
    proposals: {
      listProposals: (request, ctx) => listProposals(deps, request, ctx),
      getProposal: (request, ctx) => getProposal(deps, request, ctx),
      createProposal: (request, ctx) => createProposal(store, request, ctx),
      updateProposal: (request, ctx) => updateProposal(store, request, ctx),
      sendProposal: (request, ctx) => sendProposal(deps, request, ctx),
      withdrawProposal: (request, ctx) => withdrawProposal(store, request, ctx),
    },
    invoices: {
      listInvoices: (request, ctx) => listInvoices(deps, request, ctx),
      getInvoice: (request, ctx) => getInvoice(deps, request, ctx),
      createInvoice: (request, ctx) => createInvoice(store, request, ctx),
      updateInvoice: (request, ctx) => updateInvoice(store, request, ctx),
      issueInvoice: (request, ctx) => issueInvoice(deps, request, ctx),
      voidInvoice: (request, ctx) => voidInvoice(store, request, ctx),
      recordPayment: (request, ctx) => recordPayment(store, request, ctx),
    },
    clientLinks: {
      openProposal: (request, ctx) => openProposal(deps, request, ctx),
      signProposal: (request, ctx) => signProposal(deps, request, ctx),
      declineProposal: (request, ctx) => declineProposal(deps, request, ctx),
      openInvoice: (request) => openInvoice(deps, request),
    },
    mailOutbox: {
      listOutboundMessages: (request, ctx) => listOutboundMessages(store, request, ctx),
    },
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
