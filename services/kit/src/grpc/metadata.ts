// The RequestContext travels in the binary metadata entry `fieldops-context-bin` of every call, so
// a service takes the tenant and principal from the gateway and never from the request message.
import { Metadata } from '@grpc/grpc-js';
import { common } from '@fieldops/proto';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';

export const CONTEXT_METADATA_KEY = 'fieldops-context-bin';

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
