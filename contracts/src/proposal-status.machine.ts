// The proposal status machine, as data. The spec says a proposal moves through a declared
// transition table and leaves the table open; these are our decisions:
// - draft is the only amendable status (PATCH /proposals/:id); the business prices it freely.
// - send (POST /proposals/:id/send, two-phase confirmation) emails the customer a signing link.
// - view, sign and decline are the customer's own acts, through that link (the client pages under
//   /client/v1), never through an API token.
// - expire: a sent proposal is valid until its validUntil; after that the customer's link refuses
//   to sign and the proposal reads as expired.
// - withdraw: the business takes an offer back (a draft it will not send, or a sent one); the
//   customer's link stops working.
// - signed, declined, expired and withdrawn are final: a new offer is a new proposal.

import { defineMachine, type StateOf, type TriggerOf } from './define-machine.ts';

export const PROPOSAL_STATUS_MACHINE = defineMachine(
  {
    states: ['draft', 'sent', 'viewed', 'signed', 'declined', 'expired', 'withdrawn'],
    initial: 'draft',
    triggers: {
      send: { from: ['draft'], to: 'sent' },
      view: { from: ['sent'], to: 'viewed' },
      sign: { from: ['sent', 'viewed'], to: 'signed' },
      decline: { from: ['sent', 'viewed'], to: 'declined' },
      expire: { from: ['sent', 'viewed'], to: 'expired' },
      withdraw: { from: ['draft', 'sent', 'viewed'], to: 'withdrawn' },
    },
  },
  {
    /** Statuses in which PATCH may change the proposal. */
    amendable: ['draft'],
    /** Statuses in which the customer's link is live (it can be opened, signed or declined). */
    awaitingCustomer: ['sent', 'viewed'],
    /** Triggers only the customer fires, through the client pages. */
    byCustomer: ['view', 'sign', 'decline'],
    /** Triggers the clock fires: an offer lapses when its validUntil passes. */
    byClock: ['expire'],
  },
);
export type ProposalStatus = StateOf<typeof PROPOSAL_STATUS_MACHINE>;
export type ProposalTrigger = TriggerOf<typeof PROPOSAL_STATUS_MACHINE>;
export const PROPOSAL_STATUSES = PROPOSAL_STATUS_MACHINE.states;
