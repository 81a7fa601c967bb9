// The domain event envelope: what services emit through the outbox for every applied write,
// and what the audit ledger, the webhook dispatcher and workers consume.
import { topicOf, type EventEmitter } from '@fieldops/contracts/event-topics';
import type { RequestContext } from '../context.js';
import { newId, nowIso } from '../ids.js';
import type { OutboxEvent } from '../store/port.js';

export interface DomainEvent {
  id: string;
  /** `<kind>.<what happened>`, for example `lead.created`, `customer.updated`. */
  type: string;
  tenantId: string;
  occurredAt: string;
  resource: { kind: string; id: string };
  /** Who and why: copied from the request context so consumers need nothing else. */
  context: {
    requestId: string;
    operation: string;
    principal: { kind: string; tokenId: string; role: string; memberId: string };
    idempotencyKey: string;
    agent: { runId: string; task: string; model: string; confirmedBy: string };
  };
  data: Record<string, unknown>;
}

/** Topics are data in contracts (derived from the declared event types); re-exported for emitters. */
export { topicOf, type EventEmitter } from '@fieldops/contracts/event-topics';

export function domainEvent(
  service: EventEmitter,
  ctx: RequestContext,
  type: string,
  resource: { kind: string; id: string },
  data: Record<string, unknown>,
): OutboxEvent {
  const tenantId = ctx.tenant?.id ?? '';
  const value: DomainEvent = {
    id: newId('evt'),
    type,
    tenantId,
    occurredAt: nowIso(),
    resource,
    context: {
      requestId: ctx.requestId,
      operation: ctx.operation,
      principal: {
        kind: ctx.principal?.kind ?? '',
        tokenId: ctx.principal?.tokenId ?? '',
        role: ctx.principal?.role ?? '',
        memberId: ctx.principal?.memberId ?? '',
      },
      idempotencyKey: ctx.idempotencyKey,
      agent: {
        runId: ctx.agent?.runId ?? '',
        task: ctx.agent?.task ?? '',
        model: ctx.agent?.model ?? '',
        confirmedBy: ctx.agent?.confirmedBy ?? '',
      },
    },
    data,
  };
  return { id: value.id, tenantId, topic: topicOf(service), key: tenantId, value };
}
