// The domain event envelope: what services emit through the outbox for every applied write,
// and what the audit ledger, the webhook dispatcher and workers consume.
import { topicOf, type EventEmitter } from '@fieldops/contracts';
import type { RequestContext } from '../context.ts';
import { newId, nowIso } from '../ids.ts';
import { carrierOf, type TraceCarrier } from '../tracing/hops.ts';
import type { OutboxEvent, WriteOp } from '../store/port.ts';

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
    /**
     * The W3C trace context of the write that emitted the event (absent when it ran in no span):
     * stored with the event in the outbox, so the relay's publish and every consumer's span join
     * the request's trace, whichever event log carries it.
     */
    traceparent?: string;
    tracestate?: string;
  };
  data: Record<string, unknown>;
}

/** Topics are data in contracts (derived from the declared event types); re-exported for emitters. */
export { topicOf, type EventEmitter } from '@fieldops/contracts';
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nonEmpty = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/**
 * The project an event is about, read from what services already put in `data`: the project
 * itself, `data.projectId`, the resource view's `projectId` (`data[kind]`), or that of another view
 * the event carries (`data.site`, ...). Null for a tenant-level event (a lead, a customer, a token).
 * The change feed and the audit trail both scope project-restricted readers by it.
 */
export function projectOf(event: Pick<DomainEvent, 'resource' | 'data'>): string | null {
  const { kind, id } = event.resource;
  if (kind === 'project') return nonEmpty(id);
  const data = isObject(event.data) ? event.data : {};
  const view = data[kind];
  const direct = nonEmpty(data['projectId']) ?? (isObject(view) ? nonEmpty(view['projectId']) : null);
  if (direct) return direct;
  for (const member of Object.values(data)) {
    const found = isObject(member) ? nonEmpty(member['projectId']) : null;
    if (found) return found;
  }
  return null;
}

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
      ...carrierOf(),
    },
    data,
  };
  return { id: value.id, tenantId, topic: topicOf(service), key: tenantId, value };
}

/** A service's emit: the write op that puts one of its events in the outbox, in the commit of the change. */
export type EmitEvent<T extends string> = (
  ctx: RequestContext,
  type: T,
  resource: { kind: string; id: string },
  data: Record<string, unknown>,
) => WriteOp;

/**
 * The emit function of `service`, typed by the event types it declares (ServiceEventType<'crm'>),
 * so a service cannot emit a type the catalogue does not list for it.
 */
export function outboxEmitter<T extends string>(service: EventEmitter): EmitEvent<T> {
  return (ctx, type, resource, data) => ({
    op: 'emit',
    event: domainEvent(service, ctx, type, resource, data),
  });
}

const isTraceField = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * The trace context an event's envelope carries (empty for a value that is no domain event, or an
 * event emitted outside any span): the parent of the relay's publish span.
 */
export function traceOfEvent(value: unknown): TraceCarrier {
  const ctx = isObject(value) ? value['context'] : undefined;
  if (!isObject(ctx) || !isTraceField(ctx['traceparent'])) return {};
  return isTraceField(ctx['tracestate'])
    ? { traceparent: ctx['traceparent'], tracestate: ctx['tracestate'] }
    : { traceparent: ctx['traceparent'] };
}
