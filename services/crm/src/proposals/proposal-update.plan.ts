// Planning PATCH /proposals/:id: If-Match, drafts only, and the totals recomputed from the lines.
import { BILLING_DOCUMENT_FIELD_LIMITS } from '@fieldops/contracts';
import { checkLengths } from '@fieldops/kit/domain';
import type { RequestContext } from '@fieldops/kit';
import type { WritePlan } from '@fieldops/kit/write';
import type { billing } from '@fieldops/proto';
import { amendedDraft, planAmendDraft } from '../billing/document-writes.ts';
import { assertFuture, isoOrUndefined } from '../billing/refusals.ts';
import { PROPOSAL_DOC, type ProposalDoc, type ProposalOutcome } from './proposal.model.ts';
import type { BillingDeps } from '../billing/billing-deps.ts';

export async function planUpdateProposal(
  { store }: BillingDeps,
  tenantId: string,
  req: billing.UpdateProposalRequest,
  ctx: RequestContext,
): Promise<WritePlan<ProposalOutcome>> {
  checkLengths(BILLING_DOCUMENT_FIELD_LIMITS, req);
  return planAmendDraft(PROPOSAL_DOC, store, tenantId, req, ctx, {
    amend: (doc) => amended(doc, req),
    willDo: (doc, changes) => `Amend draft proposal ${doc.id}: ${changes}.`,
  });
}

function amended(doc: ProposalDoc, req: billing.UpdateProposalRequest): ProposalDoc {
  const validUntil =
    req.validUntil === undefined ? doc.validUntil : isoOrUndefined('validUntil', req.validUntil);
  if (req.validUntil !== undefined) assertFuture('validUntil', validUntil);
  return amendedDraft(doc, req, () => ({ validUntil }));
}
