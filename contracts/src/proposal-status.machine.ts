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

export const PROPOSAL_STATUSES = [
  'draft',
  'sent',
  'viewed',
  'signed',
  'declined',
  'expired',
  'withdrawn',
] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export const PROPOSAL_TRIGGERS = ['send', 'view', 'sign', 'decline', 'expire', 'withdraw'] as const;
export type ProposalTrigger = (typeof PROPOSAL_TRIGGERS)[number];

export const PROPOSAL_STATUS_MACHINE = {
  initial: 'draft',
  /** Each trigger: the statuses it may fire from, and the one status it leads to. */
  triggers: {
    send: { from: ['draft'], to: 'sent' },
    view: { from: ['sent'], to: 'viewed' },
    sign: { from: ['sent', 'viewed'], to: 'signed' },
    decline: { from: ['sent', 'viewed'], to: 'declined' },
    expire: { from: ['sent', 'viewed'], to: 'expired' },
    withdraw: { from: ['draft', 'sent', 'viewed'], to: 'withdrawn' },
  },
  /** Statuses in which PATCH may change the proposal. */
  amendable: ['draft'],
  /** Statuses in which the customer's link is live (it can be opened, signed or declined). */
  awaitingCustomer: ['sent', 'viewed'],
  /** Triggers only the customer fires, through the client pages. */
  byCustomer: ['view', 'sign', 'decline'],
  /** Triggers the clock fires: an offer lapses when its validUntil passes. */
  byClock: ['expire'],
} as const satisfies {
  initial: ProposalStatus;
  triggers: Record<ProposalTrigger, { from: readonly ProposalStatus[]; to: ProposalStatus }>;
  amendable: readonly ProposalStatus[];
  awaitingCustomer: readonly ProposalStatus[];
  byCustomer: readonly ProposalTrigger[];
  byClock: readonly ProposalTrigger[];
};

export const isProposalStatus = (value: string): value is ProposalStatus =>
  (PROPOSAL_STATUSES as readonly string[]).includes(value);

/** Whether `trigger` has an edge out of `status`. */
export const canFireProposal = (status: string, trigger: ProposalTrigger): boolean =>
  (PROPOSAL_STATUS_MACHINE.triggers[trigger].from as readonly string[]).includes(status);

/** The triggers with an edge out of `status`, in declaration order. */
export const proposalLegalTriggers = (status: string): ProposalTrigger[] =>
  PROPOSAL_TRIGGERS.filter((trigger) => canFireProposal(status, trigger));

export const isAmendableProposal = (status: string): boolean =>
  (PROPOSAL_STATUS_MACHINE.amendable as readonly string[]).includes(status);

export const isAwaitingCustomer = (status: string): boolean =>
  (PROPOSAL_STATUS_MACHINE.awaitingCustomer as readonly string[]).includes(status);

/** The machine as status → reachable statuses (the shape x-state-machine publishes as `moves`). */
export const PROPOSAL_STATUS_MOVES: Readonly<Record<ProposalStatus, readonly ProposalStatus[]>> =
  Object.fromEntries(
    PROPOSAL_STATUSES.map((status) => [
      status,
      proposalLegalTriggers(status).map((trigger) => PROPOSAL_STATUS_MACHINE.triggers[trigger].to),
    ]),
  ) as Record<ProposalStatus, ProposalStatus[]>;
