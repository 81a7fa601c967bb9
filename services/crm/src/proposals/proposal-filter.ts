// The list filter for proposals. Status filters by what the API shows: a sent or viewed proposal
// past its validUntil reads as expired before anyone records the expiry, so `expired` also finds
// those, and `sent`/`viewed` leave them out.
import { PROPOSAL_STATUS_MACHINE } from '@fieldops/contracts';
import type { Filter } from '@fieldops/kit/store';
import type { billing } from '@fieldops/proto';

const AWAITING = [...PROPOSAL_STATUS_MACHINE.awaitingCustomer] as string[];

function statusFilter(status: string, nowIso: string): Filter {
  if (status === PROPOSAL_STATUS_MACHINE.triggers.expire.to) {
    return { $or: [{ status }, { status: { $in: AWAITING }, validUntil: { $lte: nowIso } }] };
  }
  if (AWAITING.includes(status)) return { status, validUntil: { $gt: nowIso } };
  return { status };
}

export function proposalFilter(req: billing.ListProposalsRequest, nowIso = new Date().toISOString()): Filter {
  const filter: Filter = req.status ? statusFilter(req.status, nowIso) : {};
  if (req.customerId) filter['customerId'] = req.customerId;
  if (req.dealId) filter['dealId'] = req.dealId;
  return filter;
}
