// The body a subscriber receives, in the Standard Webhooks shape {type, timestamp, data}. data is
// the event's own data with the resource it is about and the tenant; webhook-id is the event id,
// the same on every attempt and for every subscription, so a receiver can drop a repeat.
import type { DomainEvent } from '@fieldops/kit/events';

export function webhookPayload(event: DomainEvent): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.occurredAt,
    data: { ...event.data, resource: event.resource, tenantId: event.tenantId },
  });
}

type Shape = Record<string, unknown>;
const isObject = (value: unknown): value is Shape => typeof value === 'object' && value !== null;

/** Enough of a domain event to deliver it; anything else on the log is not for subscribers. */
export function isDeliverableEvent(value: unknown): value is DomainEvent {
  if (!isObject(value)) return false;
  const strings = ['id', 'type', 'tenantId', 'occurredAt'].every(
    (key) => typeof value[key] === 'string' && value[key] !== '',
  );
  const resource = value['resource'];
  return strings && isObject(value['data']) && isObject(resource) && typeof resource['id'] === 'string';
}
