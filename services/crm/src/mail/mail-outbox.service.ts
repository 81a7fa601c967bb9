// The tenant's queued outbound messages, newest first (read by members in the portal).
import type { RequestContext } from '@fieldops/kit';
import type { Filter } from '@fieldops/kit/store';
import { requireTenantId } from '@fieldops/kit/write';
import type { billing } from '@fieldops/proto';
import { OUTBOUND_MESSAGES } from '../collections.ts';
import { listPage } from '@fieldops/kit/domain';
import { toOutboundMessageView } from './outbound-message.ts';
import type { BillingDeps } from '../billing/billing-deps.ts';

export async function listOutboundMessages(
  { store }: BillingDeps,
  req: billing.ListOutboundMessagesRequest,
  ctx: RequestContext,
): Promise<billing.OutboundMessagePage> {
  const tenantId = requireTenantId(ctx);
  const filter: Filter = req.aboutId ? { aboutId: req.aboutId } : {};
  return listPage(
    store,
    OUTBOUND_MESSAGES,
    tenantId,
    req.page,
    { filter, sort: { field: 'createdAt', direction: 'desc' } },
    toOutboundMessageView,
  );
}
