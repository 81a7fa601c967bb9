// Planning POST /proposals/:id/send: the irreversible step. In one commit the proposal becomes sent,
// the email with the customer's signing link is queued (mail/outbound-message.ts), proposal.sent is
// emitted, and the deal, when there is one, moves to proposal_sent as its machine allows. The
// gateway asks for confirmation first, showing this plan's rehearsal (masked recipient, total).
import { BILLING_REASON_MAX, PROPOSAL_STATUS_MACHINE } from '@fieldops/contracts';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { billing } from '@fieldops/proto';
import { planDealMove } from '../billing/deal-moves.ts';
import { formatMoney } from '../billing/money-format.ts';
import { maskEmail, recipientOf } from '../billing/recipient.ts';
import { illegalTrigger } from '../billing/refusals.ts';
import { newLinkNonce, signLink } from '../client-links/link-token.ts';
import type { BillingDeps } from '../billing/billing-deps.ts';
import { PROPOSALS } from '../collections.ts';
import { createEffect, eventEffect, updateEffect } from '../effects.ts';
import { emitCrmEvent } from '../events.ts';
import { checkLengths, cleanText, getOrNotFound } from '@fieldops/kit/domain';
import { CLIENT_PROPOSAL_PATH, linkPathOf, proposalMail } from '../mail/mail-texts.ts';
import { queueMail } from '../mail/outbound-message.ts';
import {
  effectiveStatus,
  proposalTriggersNow,
  toProposalView,
  type ProposalDoc,
  type ProposalOutcome,
} from './proposal.model.ts';

/** How long a proposal is open to the customer when the draft sets no validUntil. */
export const DEFAULT_VALIDITY_DAYS = 30;
/** The link outlives validUntil so a late customer is told the offer expired, not that the link is bad. */
export const LINK_GRACE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function planSendProposal(
  { store, keys }: BillingDeps,
  tenantId: string,
  req: billing.SendProposalRequest,
  ctx: RequestContext,
): Promise<WritePlan<ProposalOutcome>> {
  checkLengths({ message: BILLING_REASON_MAX }, req);
  const doc = await getOrNotFound<ProposalDoc>(store, PROPOSALS, tenantId, req.id, 'proposal');
  const sent = PROPOSAL_STATUS_MACHINE.triggers.send.to;
  // A sent proposal past its validUntil has expired (reads say so); sending it is illegal, not a replay.
  const status = effectiveStatus(doc);
  // Spec: a trigger whose destination is already reached answers 200 replayed; no second email.
  if (status === sent) return alreadySent(doc);
  if (!PROPOSAL_STATUS_MACHINE.canFire(status, 'send')) {
    throw illegalTrigger('proposal', doc.id, status, 'send', proposalTriggersNow(doc));
  }
  assertSendable(doc);
  const to = await recipientOf(store, doc, 'proposal');
  const now = Date.now();
  const validUntil = doc.validUntil ?? new Date(now + DEFAULT_VALIDITY_DAYS * DAY_MS).toISOString();
  const nonce = newLinkNonce();
  const token = signLink(keys.current, {
    tenantId,
    kind: 'proposal',
    id: doc.id,
    nonce,
    expiresAt: Date.parse(validUntil) + LINK_GRACE_DAYS * DAY_MS,
  });
  const next: ProposalDoc = {
    ...doc,
    status: sent,
    validUntil,
    sentAt: new Date(now).toISOString(),
    linkNonce: nonce,
    version: doc.version + 1,
    updatedAt: nowIso(),
  };
  const mail = queueMail(ctx, tenantId, {
    to,
    ...proposalMail({ ...doc.totals, title: doc.title, validUntil, note: cleanText(req.message) }),
    linkPath: linkPathOf(CLIENT_PROPOSAL_PATH, token),
    about: { kind: 'proposal', id: doc.id },
  });
  const deal = await planDealMove(store, ctx, {
    dealId: doc.dealId,
    trigger: 'send_proposal',
    cause: `proposal ${doc.id} sent`,
  });
  const proposal = toProposalView(next);
  const masked = maskEmail(to);
  const statusChange = [{ field: 'status', from: doc.status, to: sent }];
  return {
    ops: [
      { op: 'replace', collection: PROPOSALS, doc: next, expectedVersion: doc.version },
      mail.op,
      // The event names the recipient masked and never carries the link: the link is the customer's.
      emitCrmEvent(
        ctx,
        'proposal.sent',
        { kind: 'proposal', id: doc.id },
        {
          proposal,
          recipientMasked: masked,
          messageId: mail.doc.id,
          dealMove: deal?.move,
        },
      ),
      ...(deal?.ops ?? []),
    ],
    result: { proposal, dealMove: deal?.move },
    created: false,
    rehearsal: {
      willDo: `Email proposal ${doc.id} "${doc.title}" for ${formatMoney(doc.totals.totalCents, doc.totals.currency)} to ${masked} with a link to sign it, valid until ${validUntil}${deal?.summary ? `, and ${deal.summary}` : ''}. An email cannot be unsent.`,
      effects: [
        updateEffect('proposal', doc.id, statusChange),
        createEffect('outbound_message', mail.doc.id, [{ field: 'to', to: masked }]),
        eventEffect('proposal.sent', doc.id),
        ...(deal?.effects ?? []),
      ],
      recipientMasked: masked,
      totalCents: doc.totals.totalCents,
    },
  };
}

function assertSendable(doc: ProposalDoc): void {
  if (doc.lines.length === 0) {
    throw new AppError(
      'conflict',
      `Proposal ${doc.id} has no lines; price it (PATCH lines) before sending.`,
      {
        field: 'lines',
        status: doc.status,
      },
    );
  }
  if (doc.validUntil && Date.parse(doc.validUntil) <= Date.now()) {
    throw new AppError(
      'conflict',
      `Proposal ${doc.id} was valid until ${doc.validUntil}, which has passed; PATCH validUntil before sending.`,
      { field: 'validUntil', status: doc.status },
    );
  }
}

function alreadySent(doc: ProposalDoc): WritePlan<ProposalOutcome> {
  return unchangedPlan(
    { proposal: toProposalView(doc) },
    `Nothing would happen: proposal ${doc.id} was already sent on ${doc.sentAt}; no second email.`,
  );
}
