// The tenant's queued outbound messages, newest first (read by members in the portal).
import type { Filter } from '@fieldops/kit/store';
import type { billing } from '@fieldops/proto';
import { OUTBOUND_MESSAGES } from '../collections.ts';
import { listRpcOf, NEWEST_FIRST } from '@fieldops/kit/domain';
import { toOutboundMessageView } from './outbound-message.ts';

const aboutFilter = (req: billing.ListOutboundMessagesRequest): Filter =>
  req.aboutId ? { aboutId: req.aboutId } : {};

export const listOutboundMessages = listRpcOf(
  OUTBOUND_MESSAGES,
  { filter: aboutFilter, sort: NEWEST_FIRST },
  toOutboundMessageView,
);
