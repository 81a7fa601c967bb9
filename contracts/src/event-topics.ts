// Event topics as data: one topic per emitting service, derived from the declared event types
// (the webhook catalogue names each type's service) plus the services whose events are audit
// records only. The outbox writes to these topics, and every consumer (audit ledger, webhook
// dispatcher, change feed) subscribes to exactly this list, so a new emitter cannot be missed.
import { WEBHOOK_EVENT_TYPES } from './webhook-event-types.ts';

/** Services whose events no subscriber receives (audit and change feed only), with what they are. */
export const AUDIT_ONLY_EMITTERS = {
  gateway: 'identity writes: tenants, members, roles, tokens',
  webhooks: 'webhook subscription writes',
} as const;

/** A service that emits domain events. */
export type EventEmitter = (typeof WEBHOOK_EVENT_TYPES)[number]['service'] | keyof typeof AUDIT_ONLY_EMITTERS;

/** One topic per emitting service; the key is the tenant so a tenant's events stay in order. */
export const topicOf = (service: EventEmitter): string => `fieldops.${service}.events`;

/** Every emitting service, each once: audit-only ones first, then in catalogue order. */
export const EVENT_EMITTERS: readonly EventEmitter[] = [
  ...new Set<EventEmitter>([
    ...(Object.keys(AUDIT_ONLY_EMITTERS) as (keyof typeof AUDIT_ONLY_EMITTERS)[]),
    ...WEBHOOK_EVENT_TYPES.map((entry) => entry.service),
  ]),
];

/** Every topic that carries write events: what the audit ledger, webhooks and /changes consume. */
export const EVENT_TOPICS: readonly string[] = EVENT_EMITTERS.map(topicOf);
