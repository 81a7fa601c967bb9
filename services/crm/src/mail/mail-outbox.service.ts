// The tenant's queued outbound messages, newest first (read by members in the portal).
import type { Filter } from '@fieldops/kit/store';
import type { billing } from '@fieldops/proto';
import { OUTBOUND_MESSAGES } from '../collections.ts';
import { listRpcOf } from '@fieldops/kit/domain';
import { toOutboundMessageView } from './outbound-message.ts';

export const listOutboundMessages = listRpcOf({
  collection: OUTBOUND_MESSAGES,
  filter: (req: billing.ListOutboundMessagesRequest): Filter => (req.aboutId ? { aboutId: req.aboutId } : {}),
  sort: { field: 'createdAt', direction: 'desc' },
  view: toOutboundMessageView,
});
