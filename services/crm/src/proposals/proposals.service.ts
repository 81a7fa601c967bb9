import type { RequestContext } from '@fieldops/kit';
import { outcomeWriteRpcOf, requireTenantId } from '@fieldops/kit/write';
import type { billing } from '@fieldops/proto';
import type { BillingDeps } from '../billing/billing-deps.ts';
import { PROPOSALS } from '../collections.ts';
import { listRpcOf, NEWEST_FIRST, getOrNotFound } from '@fieldops/kit/domain';
import { planCreateProposal } from './proposal-create.plan.ts';
import { proposalFilter } from './proposal-filter.ts';
import { planSendProposal } from './proposal-send.plan.ts';
import { planUpdateProposal } from './proposal-update.plan.ts';
import { planWithdrawProposal } from './proposal-withdraw.plan.ts';
import { proposalTriggersNow, toProposalView, type ProposalDoc } from './proposal.model.ts';

/** Newest first; keyset paging (the store breaks createdAt ties by id). */
export const listProposals = listRpcOf(
  PROPOSALS,
  { filter: (req: billing.ListProposalsRequest) => proposalFilter(req), sort: NEWEST_FIRST },
  toProposalView,
);

export async function getProposal(
  { store }: BillingDeps,
  req: billing.GetProposalRequest,
  ctx: RequestContext,
): Promise<billing.ProposalDetail> {
  const doc = await getOrNotFound<ProposalDoc>(store, PROPOSALS, requireTenantId(ctx), req.id, 'proposal');
  return { proposal: toProposalView(doc), legalTriggers: proposalTriggersNow(doc) };
}

export const createProposal = outcomeWriteRpcOf('createProposal', planCreateProposal);

export const updateProposal = outcomeWriteRpcOf('updateProposal', planUpdateProposal);

/** Sending signs the customer's link, so its plan takes the keyring beside the store. */
export const sendProposal = outcomeWriteRpcOf('sendProposal', planSendProposal);

export const withdrawProposal = outcomeWriteRpcOf('withdrawProposal', planWithdrawProposal);
