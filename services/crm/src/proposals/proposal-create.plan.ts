// Planning POST /proposals: a priced draft for a customer or a deal. Nobody hears about a draft.
import { checkLengths, cleanText, compact } from '@fieldops/kit/domain';
import { BILLING_DOCUMENT_FIELD_LIMITS, PROPOSAL_STATUS_MACHINE } from '@fieldops/contracts';
import { type RequestContext, newId, nowIso } from '@fieldops/kit';
import type { WritePlan } from '@fieldops/kit/write';
import type { billing } from '@fieldops/proto';
import { resolveOwner } from '../billing/document-owner.ts';
import { createDraftPlan } from '../billing/document-writes.ts';
import { priceLines, totalsOf } from '../billing/line-items.ts';
import { formatMoney } from '../billing/money-format.ts';
import { assertFuture, isoOrUndefined, requiredText } from '../billing/refusals.ts';
import { PROPOSAL_DOC, type ProposalDoc, type ProposalOutcome } from './proposal.model.ts';
import type { BillingDeps } from '../billing/billing-deps.ts';

export async function planCreateProposal(
  { store }: BillingDeps,
  tenantId: string,
  req: billing.CreateProposalRequest,
  ctx: RequestContext,
): Promise<WritePlan<ProposalOutcome>> {
  checkLengths(BILLING_DOCUMENT_FIELD_LIMITS, req);
  const owner = await resolveOwner(store, tenantId, {
    customerId: cleanText(req.customerId),
    dealId: cleanText(req.dealId),
  });
  const validUntil = isoOrUndefined('validUntil', req.validUntil);
  assertFuture('validUntil', validUntil);
  const lines = priceLines(req.lines);
  const now = nowIso();
  const doc: ProposalDoc = compact({
    id: newId('prop'),
    tenantId,
    version: 1,
    customerId: owner.customer.id,
    dealId: owner.deal?.id,
    title: requiredText('title', req.title),
    lines,
    totals: totalsOf(lines, ctx.tenant?.currency ?? ''),
    status: PROPOSAL_STATUS_MACHINE.initial,
    notes: cleanText(req.notes),
    recipientEmail: cleanText(req.recipientEmail),
    validUntil,
    createdAt: now,
    updatedAt: now,
    opId: ctx.idempotencyKey || cleanText(req.opId),
  });
  const forWhom = owner.deal
    ? `deal ${owner.deal.id} of customer ${owner.customer.id}`
    : `customer ${owner.customer.id}`;
  return createDraftPlan(
    PROPOSAL_DOC,
    doc,
    ctx,
    `Create draft proposal "${doc.title}" for ${forWhom}: ${doc.lines.length} line(s), total ${formatMoney(doc.totals.totalCents, doc.totals.currency)}. Nobody is contacted.`,
  );
}
