// The webhooks service's outbox events: every subscription write emits one in the same commit.
// They never carry a signing secret.
import type { ServiceEventType } from '@fieldops/contracts';
import { outboxEmitter } from '@fieldops/kit/events';

export const WEBHOOKS_SERVICE = 'webhooks';

/** Event types this service emits, as the catalogue (contracts/src/webhook-event-types.ts) lists them. */
export type WebhooksEventType = ServiceEventType<'webhooks'>;

export const emitWebhooksEvent = outboxEmitter<WebhooksEventType>(WEBHOOKS_SERVICE);
