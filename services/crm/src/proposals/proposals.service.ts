import { outcomeWriteRpcOf } from '@fieldops/kit/write';
import { documentReadRpc } from '../billing/document-writes.ts';
import type { billing } from '@fieldops/proto';
import { PROPOSALS } from '../collections.ts';
import { listRpcOf, NEWEST_FIRST } from '@fieldops/kit/domain';
import { planCreateProposal } from './proposal-create.plan.ts';
import { proposalFilter } from './proposal-filter.ts';
import { planSendProposal } from './proposal-send.plan.ts';
import { planUpdateProposal } from './proposal-update.plan.ts';
import { planWithdrawProposal } from './proposal-withdraw.plan.ts';
import { PROPOSAL_DOC, toProposalView } from './proposal.model.ts';

/** Newest first; keyset paging (the store breaks createdAt ties by id). */
export const listProposals = listRpcOf(
  PROPOSALS,
  { filter: (req: billing.ListProposalsRequest) => proposalFilter(req), sort: NEWEST_FIRST },
  toProposalView,
);

export const getProposal = documentReadRpc(PROPOSAL_DOC);

export const createProposal = outcomeWriteRpcOf('createProposal', planCreateProposal);

export const updateProposal = outcomeWriteRpcOf('updateProposal', planUpdateProposal);

/** Sending signs the customer's link, so its plan takes the keyring beside the store. */
export const sendProposal = outcomeWriteRpcOf('sendProposal', planSendProposal);

export const withdrawProposal = outcomeWriteRpcOf('withdrawProposal', planWithdrawProposal);
