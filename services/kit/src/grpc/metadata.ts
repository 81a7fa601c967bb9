// The RequestContext travels in the binary metadata entry `fieldops-context-bin` of every call, so
// a service takes the tenant and principal from the gateway and never from the request message.
// Beside it travel the W3C `traceparent` (and `tracestate`) of the calling span, as gRPC's
// OpenTelemetry convention names them, so the callee's span joins the caller's trace.
import { Metadata } from '@grpc/grpc-js';
import { common } from '@fieldops/proto';
import type { RequestContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { TraceCarrier } from '../tracing/hops.ts';

export const CONTEXT_METADATA_KEY = 'fieldops-context-bin';

/** The W3C trace-context entries a call carries beside the request context (tracing/hops.ts). */
const TRACE_METADATA_KEYS = ['traceparent', 'tracestate'] as const;

/** Adds the caller's span (a hop's carrier) to the call's metadata, as W3C `traceparent`. */
export function traceToMetadata(carrier: TraceCarrier, metadata: Metadata): Metadata {
  for (const key of TRACE_METADATA_KEYS) {
    const value = carrier[key];
    if (value) metadata.set(key, value);
  }
  return metadata;
}

/** The caller's trace context from a call's metadata; empty when the call carries none. */
export function traceFromMetadata(metadata: Metadata): TraceCarrier {
  const carrier: TraceCarrier = {};
  for (const key of TRACE_METADATA_KEYS) {
    const [value] = metadata.get(key);
    if (typeof value === 'string') carrier[key] = value;
  }
  return carrier;
}

/** Writes the context into `metadata` (a new Metadata when omitted) and returns it. */
export function contextToMetadata(ctx: RequestContext, metadata: Metadata = new Metadata()): Metadata {
  metadata.set(CONTEXT_METADATA_KEY, Buffer.from(common.RequestContext.encode(ctx).finish()));
  return metadata;
}

const invalidContext = (reason: string, cause?: unknown): AppError =>
  new AppError('invalid_body', `The call carries ${reason} request context.`, {}, { cause });

/**
 * Reads the context of an incoming call. Missing, duplicated, undecodable or tenant-less contexts are
 * refused: every store call needs the tenant, and guessing one would break tenant isolation.
 */
export function contextFromMetadata(metadata: Metadata): RequestContext {
  const values = metadata.get(CONTEXT_METADATA_KEY);
  if (values.length === 0) throw invalidContext('no');
  const [value] = values;
  if (values.length > 1 || !Buffer.isBuffer(value)) throw invalidContext('an ambiguous');
  let ctx: RequestContext;
  try {
    ctx = common.RequestContext.decode(value);
  } catch (err) {
    throw invalidContext('an undecodable', err);
  }
  if (!ctx.tenant?.id) throw invalidContext('a tenant-less');
  return ctx;
}
