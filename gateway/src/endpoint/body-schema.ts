// The body a write accepts: its declared schema, plus `opId` for every write with a body (spec
// Conventions 4 and Authentication 7: opId in the body is the Idempotency-Key header). The
// pipeline parses with this schema and the OpenAPI document and tool list publish it, so the
// three never disagree about which writes take opId.
import type { z } from 'zod';
import { opIdField } from './common.schemas.ts';
import type { EndpointDef } from './types.ts';

const withKey = new WeakMap<z.ZodObject, z.ZodObject>();

/** True when the endpoint's own body declares opId (its handler reads it); else the pipeline strips it. */
export const declaresOpId = (endpoint: EndpointDef): boolean => Boolean(endpoint.body?.shape.opId);

/** The body schema as accepted over HTTP; undefined for an endpoint that takes no body. */
export function acceptedBody(endpoint: EndpointDef): z.ZodObject | undefined {
  const body = endpoint.body;
  if (!body || endpoint.method === 'GET' || declaresOpId(endpoint)) return body;
  let extended = withKey.get(body);
  if (!extended) {
    extended = body.extend({ opId: opIdField });
    withKey.set(body, extended);
  }
  return extended;
}
