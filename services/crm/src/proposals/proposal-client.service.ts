// The customer's side of a proposal, reached through the signed link the send email carries:
// opening it records the first view, and the customer signs or declines. Each act is a write
// through runWrite (one commit with its event); signing also wins the deal and prices it with the
// proposal's total, as the deal machine allows.
import { PROPOSAL_STATUS_MACHINE } from '@fieldops/contracts';
import { type RequestContext, AppError } from '@fieldops/kit';
import type { DocumentStore, WriteOp } from '@fieldops/kit/store';
import { runWrite, type WritePlan } from '@fieldops/kit/write';
import type { billing } from '@fieldops/proto';
import { planDealMove } from '../billing/deal-moves.ts';
import { requiredText } from '../billing/refusals.ts';
import { assertCurrentLink, claimsOf, clientContext } from '../client-links/client-context.ts';
import type { LinkKeyring } from '../client-links/link-keys.ts';
import type { LinkClaims } from '../client-links/link-token.ts';
import { PROPOSALS } from '../collections.ts';
import { cleanText } from '@fieldops/kit/domain';
import { proposalStep } from './proposal-move.ts';
import { hasLapsed, toClientProposal, type ProposalDoc } from './proposal.model.ts';

export const MAX_SIGNER_NAME = 200;
export const MAX_DECLINE_REASON = 2000;

interface Deps {
  store: DocumentStore;
  keys: LinkKeyring;
}

async function loadLinked(store: DocumentStore, claims: LinkClaims): Promise<ProposalDoc> {
  const doc = await store.get<ProposalDoc>(PROPOSALS, claims.tenantId, claims.id);
  assertCurrentLink(claims, doc);
  return doc as ProposalDoc;
}

type Act = (doc: ProposalDoc, ctx: RequestContext) => Promise<WritePlan<billing.ClientProposal>>;

/** Runs one customer act on the linked proposal, recording its expiry first when it has lapsed. */
async function act(deps: Deps, token: string, ctx: RequestContext, operation: string, plan: Act) {
  const claims = claimsOf(deps.keys, token, 'proposal');
  const clientCtx = clientContext(ctx, claims, operation);
  const { result } = await runWrite(deps.store, clientCtx, {
    operation,
    fingerprint: { token },
    plan: async () => {
      const doc = await loadLinked(deps.store, claims);
      if (hasLapsed(doc)) return expired(doc, clientCtx);
      return plan(doc, clientCtx);
    },
  });
  if (result.status === PROPOSAL_STATUS_MACHINE.triggers.expire.to && operation !== 'openProposal') {
    throw new AppError(
      'conflict',
      `This proposal expired on ${result.validUntil}; ask the business for a new one.`,
      {
        status: result.status,
        legalTriggers: [],
      },
    );
  }
  return result;
}

const answer = (doc: ProposalDoc, ops: WriteOp[] = []): WritePlan<billing.ClientProposal> => ({
  ops,
  result: toClientProposal(doc),
  created: false,
  rehearsal: { willDo: '', effects: [] },
});

/** The offer lapsed unanswered: the first use of its link after validUntil records the expiry. */
function expired(doc: ProposalDoc, ctx: RequestContext): WritePlan<billing.ClientProposal> {
  const step = proposalStep(
    doc,
    'expire',
    { expiredAt: new Date().toISOString(), linkNonce: doc.linkNonce },
    ctx,
  );
  return answer(step.next, step.ops);
}

export async function openProposal(deps: Deps, req: billing.OpenLinkRequest, ctx: RequestContext) {
  return act(deps, req.token, ctx, 'openProposal', async (doc, clientCtx) => {
    // Only the first opening moves sent → viewed; later ones (and any other status) just show it.
    if (!PROPOSAL_STATUS_MACHINE.canFire(doc.status, 'view')) return answer(doc);
    const step = proposalStep(doc, 'view', { viewedAt: new Date().toISOString() }, clientCtx);
    return answer(step.next, step.ops);
  });
}

export async function signProposal(deps: Deps, req: billing.SignProposalRequest, ctx: RequestContext) {
  const signerName = requiredText('signerName', req.signerName);
  if (signerName.length > MAX_SIGNER_NAME) {
    throw new AppError('field_too_long', `signerName must be at most ${MAX_SIGNER_NAME} characters.`, {
      field: 'signerName',
      maxLength: MAX_SIGNER_NAME,
    });
  }
  return act(deps, req.token, ctx, 'signProposal', async (doc, clientCtx) => {
    if (doc.status === PROPOSAL_STATUS_MACHINE.triggers.sign.to) return answer(doc);
    refuseUnless(doc, 'sign');
    const signature = {
      signerName,
      signedAt: new Date().toISOString(),
      ip: req.ip,
      userAgent: req.userAgent,
    };
    const deal = await planDealMove(deps.store, clientCtx, {
      dealId: doc.dealId,
      trigger: 'win',
      cause: `proposal ${doc.id} signed`,
      value: { cents: doc.totals.totalCents, currency: doc.totals.currency },
    });
    const step = proposalStep(doc, 'sign', { signature }, clientCtx, {
      signerName,
      totals: doc.totals,
      dealMove: deal?.move,
    });
    return answer(step.next, [...step.ops, ...(deal?.ops ?? [])]);
  });
}

export async function declineProposal(deps: Deps, req: billing.DeclineProposalRequest, ctx: RequestContext) {
  const reason = cleanText(req.reason);
  if (reason && reason.length > MAX_DECLINE_REASON) {
    throw new AppError('field_too_long', `reason must be at most ${MAX_DECLINE_REASON} characters.`, {
      field: 'reason',
      maxLength: MAX_DECLINE_REASON,
    });
  }
  return act(deps, req.token, ctx, 'declineProposal', async (doc, clientCtx) => {
    if (doc.status === PROPOSAL_STATUS_MACHINE.triggers.decline.to) return answer(doc);
    refuseUnless(doc, 'decline');
    const step = proposalStep(
      doc,
      'decline',
      { declinedAt: new Date().toISOString(), declineReason: reason },
      clientCtx,
      {
        reason,
      },
    );
    return answer(step.next, step.ops);
  });
}

function refuseUnless(doc: ProposalDoc, trigger: 'sign' | 'decline'): void {
  if (PROPOSAL_STATUS_MACHINE.canFire(doc.status, trigger)) return;
  throw new AppError(
    'conflict',
    `This proposal is ${doc.status} and can no longer be ${trigger === 'sign' ? 'signed' : 'declined'}.`,
    {
      status: doc.status,
      legalTriggers: [],
    },
  );
}
