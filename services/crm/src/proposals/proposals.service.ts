// Proposals: priced offers to a customer. Reads go straight to the store; every write is planned
// (proposal-*.plan.ts) and applied through runWrite, which makes it exactly-once by key,
// dry-runnable, and atomic with its outbox event, its email and its deal move.
import type { RequestContext } from '@fieldops/kit/context';
import { notFound } from '@fieldops/kit/errors';
import type { DocumentStore } from '@fieldops/kit/store/port';
import { requireTenantId, runWrite } from '@fieldops/kit/write/index';
import type { WritePlan } from '@fieldops/kit/write/index';
import type { billing } from '@fieldops/proto';
import type { LinkKeyring } from '../client-links/link-keys.js';
import { PROPOSALS } from '../collections.js';
import { listPage } from '@fieldops/kit/domain/paging';
import { planCreateProposal } from './proposal-create.plan.js';
import { proposalFilter } from './proposal-filter.js';
import { planSendProposal } from './proposal-send.plan.js';
import { planUpdateProposal } from './proposal-update.plan.js';
import { planWithdrawProposal } from './proposal-withdraw.plan.js';
import { proposalTriggersNow, toProposalView } from './proposal.model.js';
import type { ProposalDoc, ProposalOutcome } from './proposal.model.js';

export interface ProposalDeps {
  store: DocumentStore;
  keys: LinkKeyring;
}

/** Newest first; keyset paging (the store breaks createdAt ties by id). */
export async function listProposals(
  { store }: ProposalDeps,
  req: billing.ListProposalsRequest,
  ctx: RequestContext,
): Promise<billing.ProposalPage> {
  const tenantId = requireTenantId(ctx);
  return listPage(
    store,
    PROPOSALS,
    tenantId,
    req.page,
    { filter: proposalFilter(req), sort: { field: 'createdAt', direction: 'desc' } },
    toProposalView,
  );
}

export async function getProposal(
  { store }: ProposalDeps,
  req: billing.GetProposalRequest,
  ctx: RequestContext,
): Promise<billing.ProposalDetail> {
  const doc = await store.get<ProposalDoc>(PROPOSALS, requireTenantId(ctx), req.id);
  if (!doc) throw notFound('proposal', req.id);
  return { proposal: toProposalView(doc), legalTriggers: proposalTriggersNow(doc) };
}

async function write(
  store: DocumentStore,
  ctx: RequestContext,
  operation: string,
  request: unknown,
  plan: (tenantId: string) => Promise<WritePlan<ProposalOutcome>>,
): Promise<billing.ProposalWrite> {
  const tenantId = requireTenantId(ctx);
  const { result, meta } = await runWrite(store, ctx, {
    operation,
    fingerprint: request,
    plan: () => plan(tenantId),
  });
  return { proposal: result.proposal, meta, dealMove: result.dealMove };
}

export const createProposal = (
  { store }: ProposalDeps,
  req: billing.CreateProposalRequest,
  ctx: RequestContext,
) => write(store, ctx, 'createProposal', req, (tenantId) => planCreateProposal(store, tenantId, req, ctx));

export const updateProposal = (
  { store }: ProposalDeps,
  req: billing.UpdateProposalRequest,
  ctx: RequestContext,
) => write(store, ctx, 'updateProposal', req, (tenantId) => planUpdateProposal(store, tenantId, req, ctx));

export const sendProposal = (
  { store, keys }: ProposalDeps,
  req: billing.SendProposalRequest,
  ctx: RequestContext,
) => write(store, ctx, 'sendProposal', req, (tenantId) => planSendProposal(store, keys, tenantId, req, ctx));

export const withdrawProposal = (
  { store }: ProposalDeps,
  req: billing.WithdrawProposalRequest,
  ctx: RequestContext,
) =>
  write(store, ctx, 'withdrawProposal', req, (tenantId) => planWithdrawProposal(store, tenantId, req, ctx));
