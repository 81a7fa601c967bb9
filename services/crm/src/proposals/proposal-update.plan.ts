// Planning PATCH /proposals/:id: If-Match, drafts only, and the totals recomputed from the lines.
import { BILLING_DOCUMENT_FIELD_LIMITS } from '@fieldops/contracts';
import { checkLengths } from '@fieldops/kit/domain/fields';
import type { RequestContext } from '@fieldops/kit/context';
import { nowIso } from '@fieldops/kit/ids';
import type { DocumentStore } from '@fieldops/kit/store/port';
import type { WritePlan } from '@fieldops/kit/write/index';
import type { billing } from '@fieldops/proto';
import { amendDraftPlan, draftToAmend, unchangedPlan } from '../billing/document-writes.js';
import { priceLines, totalsOf } from '../billing/line-items.js';
import { assertFuture, isoOrUndefined, requiredText } from '../billing/refusals.js';
import { describeChanges, diffFields } from '@fieldops/kit/domain/changes';
import { compact, patched } from '@fieldops/kit/domain/fields';
import { PROPOSAL_CHANGE_FIELDS, PROPOSAL_DOC, proposalFacts } from './proposal.model.js';
import type { ProposalDoc, ProposalOutcome } from './proposal.model.js';

export async function planUpdateProposal(
  store: DocumentStore,
  tenantId: string,
  req: billing.UpdateProposalRequest,
  ctx: RequestContext,
): Promise<WritePlan<ProposalOutcome>> {
  checkLengths(BILLING_DOCUMENT_FIELD_LIMITS, req);
  const doc = await draftToAmend(PROPOSAL_DOC, store, tenantId, req);
  const next = amended(doc, req);
  const changes = diffFields(proposalFacts(doc), proposalFacts(next), PROPOSAL_CHANGE_FIELDS);
  const linesChanged = req.hasLines && JSON.stringify(next.lines) !== JSON.stringify(doc.lines);
  if (changes.length === 0 && !linesChanged) return unchangedPlan(PROPOSAL_DOC, doc);
  const reported = changes.length ? changes : [{ field: 'lines', from: undefined, to: undefined }];
  const willDo = `Amend draft proposal ${doc.id}: ${describeChanges(reported) || 'lines'}.`;
  return amendDraftPlan(PROPOSAL_DOC, doc, next, reported, ctx, willDo);
}

function amended(doc: ProposalDoc, req: billing.UpdateProposalRequest): ProposalDoc {
  const lines = req.hasLines ? priceLines(req.lines) : doc.lines;
  const validUntil =
    req.validUntil === undefined ? doc.validUntil : isoOrUndefined('validUntil', req.validUntil);
  if (req.validUntil !== undefined) assertFuture('validUntil', validUntil);
  return compact({
    ...doc,
    title: req.title === undefined ? doc.title : requiredText('title', req.title),
    lines,
    totals: totalsOf(lines, doc.totals.currency),
    notes: patched(doc.notes, req.notes),
    recipientEmail: patched(doc.recipientEmail, req.recipientEmail),
    validUntil,
    version: doc.version + 1,
    updatedAt: nowIso(),
  });
}
