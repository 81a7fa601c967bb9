// A proposal as stored, and as the API and the customer see it.
import { PROPOSAL_STATUS_MACHINE, type ProposalStatus } from '@fieldops/contracts';
import type { Doc } from '@fieldops/kit/store';
import type { billing } from '@fieldops/proto';
import { copyLines, type LineDoc } from '../billing/line-items.ts';
import type { BillingDocType } from '../billing/document-writes.ts';
import { PROPOSALS } from '../collections.ts';
import { etagOf, type Complete } from '@fieldops/kit/domain';

export interface ProposalDoc extends Doc {
  customerId: string;
  dealId?: string;
  title: string;
  lines: LineDoc[];
  totals: billing.Totals;
  status: ProposalStatus;
  notes?: string;
  recipientEmail?: string;
  validUntil?: string;
  sentAt?: string;
  viewedAt?: string;
  signature?: billing.Signature;
  declinedAt?: string;
  declineReason?: string;
  withdrawnAt?: string;
  withdrawReason?: string;
  expiredAt?: string;
  /** Matches the nonce inside the customer's link; a link with another nonce is retired. */
  linkNonce?: string;
  createdAt: string;
  updatedAt: string;
  opId?: string;
}

/** Fields whose changes are reported (rehearsal effects, events). */
export const PROPOSAL_CHANGE_FIELDS = [
  'title',
  'notes',
  'recipientEmail',
  'validUntil',
  'status',
  'subtotalCents',
  'taxCents',
  'totalCents',
  'lineCount',
] as const;

/** The flat fields diffFields compares (totals and lines reduced to figures a person reads). */
export function proposalFacts(doc: ProposalDoc): Record<(typeof PROPOSAL_CHANGE_FIELDS)[number], unknown> {
  return {
    title: doc.title,
    notes: doc.notes,
    recipientEmail: doc.recipientEmail,
    validUntil: doc.validUntil,
    status: doc.status,
    subtotalCents: doc.totals.subtotalCents,
    taxCents: doc.totals.taxCents,
    totalCents: doc.totals.totalCents,
    lineCount: doc.lines.length,
  };
}

/**
 * A proposal the customer has not answered by its validUntil has expired, whether or not anyone
 * touched it since: reads say so at once, and the customer's next use of the link records it.
 */
export function hasLapsed(doc: ProposalDoc, now = Date.now()): boolean {
  return (
    PROPOSAL_STATUS_MACHINE.isIn('awaitingCustomer', doc.status) &&
    doc.validUntil !== undefined &&
    Date.parse(doc.validUntil) <= now
  );
}

export const effectiveStatus = (doc: ProposalDoc, now = Date.now()): ProposalStatus =>
  hasLapsed(doc, now) ? PROPOSAL_STATUS_MACHINE.triggers.expire.to : doc.status;

export function toProposalView(doc: ProposalDoc): billing.Proposal {
  return {
    id: doc.id,
    customerId: doc.customerId,
    dealId: doc.dealId,
    title: doc.title,
    lines: copyLines(doc.lines),
    totals: { ...doc.totals },
    status: effectiveStatus(doc),
    notes: doc.notes,
    recipientEmail: doc.recipientEmail,
    validUntil: doc.validUntil,
    sentAt: doc.sentAt,
    viewedAt: doc.viewedAt,
    signature: doc.signature ? { ...doc.signature } : undefined,
    declinedAt: doc.declinedAt,
    declineReason: doc.declineReason,
    withdrawnAt: doc.withdrawnAt,
    expiredAt: doc.expiredAt,
    etag: etagOf(doc),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    opId: doc.opId,
  } satisfies Complete<billing.Proposal>;
}

export const proposalTriggersNow = (doc: ProposalDoc): string[] =>
  PROPOSAL_STATUS_MACHINE.legalTriggers(effectiveStatus(doc));

/** What the customer sees: the offer and its state, none of the business's internal fields. */
export function toClientProposal(doc: ProposalDoc): billing.ClientProposal {
  const status = effectiveStatus(doc);
  return {
    id: doc.id,
    title: doc.title,
    lines: copyLines(doc.lines),
    totals: { ...doc.totals },
    status,
    notes: doc.notes,
    validUntil: doc.validUntil,
    signature: doc.signature
      ? { signerName: doc.signature.signerName, signedAt: doc.signature.signedAt, ip: '', userAgent: '' }
      : undefined,
    declineReason: doc.declineReason,
    actions: PROPOSAL_STATUS_MACHINE.isIn('awaitingCustomer', status) ? ['sign', 'decline'] : [],
  };
}

/** What a proposal write answers (and what a replay of it answers again). */
export interface ProposalOutcome {
  proposal: billing.Proposal;
  /** What the write did to the proposal's deal, when it has one and the write moves deals. */
  dealMove?: billing.DealMove;
}

/** Proposals for the writes they share with invoices (billing/document-writes.ts). */
export const PROPOSAL_DOC: BillingDocType<ProposalDoc, ProposalOutcome> = {
  kind: 'proposal',
  collection: PROPOSALS,
  outcome: (doc) => ({ proposal: toProposalView(doc) }),
  created: 'proposal.created',
  updated: 'proposal.updated',
  view: toProposalView,
  amendable: (status: string) => PROPOSAL_STATUS_MACHINE.isIn('amendable', status),
  triggersNow: proposalTriggersNow,
  facts: proposalFacts,
  changeFields: PROPOSAL_CHANGE_FIELDS,
};
