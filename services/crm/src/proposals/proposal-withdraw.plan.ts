// Planning POST /proposals/:id/withdraw: the business takes its offer back. The customer's link
// stops working (its nonce is cleared); a deal the proposal moved stays where it is, since the
// pipeline is the business's own to move.
import { BILLING_REASON_MAX, PROPOSAL_STATUS_MACHINE } from '@fieldops/contracts';
import type { RequestContext } from '@fieldops/kit';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { billing } from '@fieldops/proto';
import { illegalTrigger } from '../billing/refusals.ts';
import { PROPOSALS } from '../collections.ts';
import { checkLengths, cleanText, getOrNotFound } from '@fieldops/kit/domain';
import { proposalStep } from './proposal-move.ts';
import {
  effectiveStatus,
  proposalTriggersNow,
  toProposalView,
  type ProposalDoc,
  type ProposalOutcome,
} from './proposal.model.ts';
import type { BillingDeps } from '../billing/billing-deps.ts';

export async function planWithdrawProposal(
  { store }: BillingDeps,
  tenantId: string,
  req: billing.WithdrawProposalRequest,
  ctx: RequestContext,
): Promise<WritePlan<ProposalOutcome>> {
  checkLengths({ reason: BILLING_REASON_MAX }, req);
  const doc = await getOrNotFound<ProposalDoc>(store, PROPOSALS, tenantId, req.id, 'proposal');
  const withdrawn = PROPOSAL_STATUS_MACHINE.triggers.withdraw.to;
  if (doc.status === withdrawn) {
    return unchangedPlan(
      { proposal: toProposalView(doc) },
      `Nothing would change: proposal ${doc.id} is already withdrawn.`,
    );
  }
  // An offer past its validUntil has expired already; there is nothing left to take back.
  const status = effectiveStatus(doc);
  if (!PROPOSAL_STATUS_MACHINE.canFire(status, 'withdraw')) {
    throw illegalTrigger('proposal', doc.id, status, 'withdraw', proposalTriggersNow(doc));
  }
  const reason = cleanText(req.reason);
  const step = proposalStep(
    doc,
    'withdraw',
    { withdrawnAt: new Date().toISOString(), withdrawReason: reason, linkNonce: undefined },
    ctx,
    { reason },
  );
  return {
    ops: step.ops,
    result: { proposal: toProposalView(step.next) },
    created: false,
    rehearsal: {
      willDo: `Withdraw proposal ${doc.id} "${doc.title}" (${doc.status}); ${doc.status === PROPOSAL_STATUS_MACHINE.initial ? 'it was never sent' : "the customer's link stops working"}.`,
      effects: step.effects,
      totalCents: doc.totals.totalCents,
    },
  };
}
