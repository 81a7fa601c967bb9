// Spans at the platform's own hops: the gateway's HTTP request, each gRPC call on both ends, the
// relay's publish of an outbox event and a consumer's handling of it. A hop starts from a carrier
// (the incoming headers, metadata or event that holds a W3C `traceparent`) or from the context
// the code runs in, and hands a carrier on to the next hop, so one request is one trace.
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

/** The W3C trace-context fields a hop hands on (`tracestate` only when a caller sent one). */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

export type HopKind = 'server' | 'client' | 'producer' | 'consumer';

const KINDS: Record<HopKind, SpanKind> = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};

const TRACER = 'fieldops';

export interface Hop {
  /** The context with this hop's span: what runs inside the hop runs in it (inHop). */
  readonly context: Context;
  /** The carrier for the next hop: this span as its parent. */
  carrier(): TraceCarrier;
  /** Names the span once the route is known (an HTTP route matched after the span began). */
  rename(name: string): void;
  setAttributes(attributes: Attributes): void;
  /** Ends the span; a failure marks it as an error with the failure's message. */
  end(failure?: unknown): void;
}

/** The context a carrier names, under ROOT_CONTEXT; ROOT_CONTEXT itself when it names none. */
export function contextOfCarrier(
  carrier: TraceCarrier | Readonly<NodeJS.Dict<unknown>> | undefined,
): Context {
  if (!carrier) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** The carrier of a context (the active one by default): what a record stores to join the trace later. */
export function carrierOf(ctx: Context = context.active()): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/**
 * The tracer, asked for once: `trace.getTracer` builds a lookup key on every call, which was
 * measurable per request. Asked for before `startTracing`, it is the API's proxy tracer, which
 * hands over to the provider once one is installed.
 */
let cachedTracer: Tracer | undefined;
const tracer = (): Tracer => (cachedTracer ??= trace.getTracer(TRACER));

/**
 * Starts a span for one hop. Its parent is the carrier's context when a carrier is given (what
 * arrived with a request, a call or an event), else the context the code runs in.
 */
export function startHop(
  name: string,
  kind: HopKind,
  parent?: TraceCarrier | Readonly<NodeJS.Dict<unknown>>,
  attributes?: Attributes,
): Hop {
  const parentContext = parent === undefined ? context.active() : contextOfCarrier(parent);
  const span = tracer().startSpan(
    name,
    { kind: KINDS[kind], ...(attributes ? { attributes } : {}) },
    parentContext,
  );
  return hopOf(span, trace.setSpan(parentContext, span));
}

function hopOf(span: Span, ctx: Context): Hop {
  return {
    context: ctx,
    carrier: () => carrierOf(ctx),
    rename: (name) => {
      if (span.isRecording()) span.updateName(name);
    },
    setAttributes: (attributes) => {
      if (span.isRecording()) span.setAttributes(attributes);
    },
    end: (failure) => {
      if (failure !== undefined && span.isRecording()) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(failure) });
      }
      span.end();
    },
  };
}

const messageOf = (failure: unknown): string =>
  failure instanceof Error ? failure.message : String(failure);

/** Runs `work` inside the hop: its logs, calls and events carry the hop's trace. */
export function inHop<T>(hop: Hop, work: () => T): T {
  return context.with(hop.context, work);
}

/** Runs `work` inside the hop and ends the hop when it settles (as an error when it rejects). */
export async function throughHop<T>(hop: Hop, work: () => Promise<T>): Promise<T> {
  try {
    const result = await inHop(hop, work);
    hop.end();
    return result;
  } catch (err) {
    hop.end(err);
    throw err;
  }
}

/**
 * Listeners added to `emitter` from now on run in the hop's context. A request's body and its
 * `finish` arrive as events of the socket, outside the context the request began in.
 */
export function bindToHop<E extends NodeJS.EventEmitter>(hop: Hop, emitter: E): E {
  return context.bind(hop.context, emitter);
}

/**
 * `trace_id` and `span_id` of the span the code runs in, for a log line; no fields outside any
 * span. What kit/log.ts adds to every line: a new object each time, since pino merges the line's
 * own fields into it.
 */
export function traceFieldsOfActive(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (span === undefined) return {};
  const spanContext = span.spanContext();
  if (!trace.isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}
