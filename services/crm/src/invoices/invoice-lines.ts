// Where a new invoice's lines come from: the lines the caller priced, or a signed proposal's (named
// by proposalId, or the newest signed proposal of the deal when only the deal is named). Billing
// what the customer signed is the common case, and copying the lines keeps the two documents equal.
import { PROPOSAL_STATUS_MACHINE } from '@fieldops/contracts';
import { AppError } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import type { billing } from '@fieldops/proto';
import { resolveOwner, type DocumentOwner } from '../billing/document-owner.ts';
import { priceLines, type LineDoc } from '../billing/line-items.ts';
import { PROPOSALS } from '../collections.ts';
import { cleanText, getOrNotFound, NEWEST_FIRST } from '@fieldops/kit/domain';
import type { ProposalDoc } from '../proposals/proposal.model.ts';

const SIGNED = PROPOSAL_STATUS_MACHINE.triggers.sign.to;

export interface InvoiceSource {
  owner: DocumentOwner;
  lines: LineDoc[];
  proposal?: ProposalDoc;
}

export async function invoiceSource(
  store: DocumentStore,
  tenantId: string,
  req: billing.CreateInvoiceRequest,
): Promise<InvoiceSource> {
  const proposalId = cleanText(req.proposalId);
  if (proposalId && req.lines.length > 0) {
    throw new AppError(
      'field_invalid',
      'Send either lines or proposalId: an invoice drafted from a proposal takes its lines.',
      { field: 'lines' },
    );
  }
  if (proposalId) return fromProposal(store, tenantId, proposalId, req);
  const owner = await resolveOwner(store, tenantId, {
    customerId: cleanText(req.customerId),
    dealId: cleanText(req.dealId),
  });
  if (req.lines.length > 0 || !owner.deal) return { owner, lines: priceLines(req.lines) };
  const signed = await store.find<ProposalDoc>(
    PROPOSALS,
    tenantId,
    { dealId: owner.deal.id, status: SIGNED },
    { sort: NEWEST_FIRST, limit: 1 },
  );
  const proposal = signed[0];
  return proposal ? { owner, lines: proposal.lines, proposal } : { owner, lines: [] };
}

async function fromProposal(
  store: DocumentStore,
  tenantId: string,
  proposalId: string,
  req: billing.CreateInvoiceRequest,
): Promise<InvoiceSource> {
  const proposal = await getOrNotFound<ProposalDoc>(store, PROPOSALS, tenantId, proposalId, 'proposal');
  if (proposal.status !== SIGNED) {
    throw new AppError(
      'conflict',
      `Proposal ${proposal.id} is ${proposal.status}; only a signed proposal can be invoiced. Send lines instead to bill something else.`,
      { field: 'proposalId', status: proposal.status },
    );
  }
  mustMatch('customerId', cleanText(req.customerId), proposal.customerId, proposal.id);
  mustMatch('dealId', cleanText(req.dealId), proposal.dealId, proposal.id);
  const owner = await resolveOwner(store, tenantId, {
    customerId: proposal.customerId,
    dealId: proposal.dealId,
  });
  return { owner, lines: proposal.lines, proposal };
}

function mustMatch(field: string, sent: string | undefined, actual: string | undefined, proposalId: string) {
  if (sent === undefined || sent === actual) return;
  throw new AppError(
    'field_invalid',
    `Proposal ${proposalId} belongs to ${field} ${actual ?? '(none)'}, not ${sent}; send the proposal alone.`,
    { field },
  );
}
