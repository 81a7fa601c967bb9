// The webhooks service's outbox events: every subscription write emits one in the same commit.
// They never carry a signing secret.
import type { ServiceEventType } from '@fieldops/contracts';
import type { RequestContext } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import type { WriteOp } from '@fieldops/kit/store';

export const WEBHOOKS_SERVICE = 'webhooks';

/** Event types this service emits, as the catalogue (contracts/src/webhook-event-types.ts) lists them. */
export type WebhooksEventType = ServiceEventType<'webhooks'>;

export function emitWebhooksEvent(
  ctx: RequestContext,
  type: WebhooksEventType,
  resource: { kind: string; id: string },
  data: Record<string, unknown>,
): WriteOp {
  return { op: 'emit', event: domainEvent(WEBHOOKS_SERVICE, ctx, type, resource, data) };
}
