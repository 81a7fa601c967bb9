// Which error codes an operation can answer, derived from its declaration and from what each
// stage of the pipeline (gateway/src/pipeline) may refuse, so the document never lists them by
// hand: authentication, rate bucket, scope, header limits, body and query parsing, project
// scope, If-Match, keyed-write lock, confirmation, budgets (429 like the rate bucket), the service call, and the edge.
import type { ErrorCode } from '@fieldops/kit';
import { COMMON_ERRORS, type EndpointDef } from '../endpoint/types.ts';
import { edgeErrorCodes } from '../http/edge-responses.ts';

/** Every request: headers over their limit or a bad dry-run value, a body where none is taken. */
const EVERY_REQUEST: readonly ErrorCode[] = [
  'rate_limited',
  'field_invalid',
  'field_too_long',
  'invalid_json',
  'invalid_body',
  'unknown_field',
];

/** What parseInput may answer for a declared path, query or body schema. */
const VALIDATION: readonly ErrorCode[] = ['field_required', 'field_invalid_enum'];

const SCOPE_DENIALS: readonly ErrorCode[] = ['read_only', 'out_of_scope', 'role_denied'];

/** A token-only endpoint checks no scope itself; one that checks per kind declares those codes. */
function authErrors(endpoint: EndpointDef): ErrorCode[] {
  if (endpoint.auth === 'none') return [];
  // A cross-cutting read that requires kinds or refuses restricted tokens denies like a scope.
  const gate = endpoint.gathers?.byKind === 'require' || endpoint.gathers?.byProject === 'refuse';
  return COMMON_ERRORS.filter((code) => endpoint.auth === 'scope' || gate || !SCOPE_DENIALS.includes(code));
}

function writeErrors(endpoint: EndpointDef): ErrorCode[] {
  if (endpoint.method === 'GET') return [];
  return [
    'conflict', // another request with the same idempotency key still in progress
    ...(endpoint.amending ? (['precondition_required'] as const) : []),
    ...(endpoint.confirm ? (['confirmation_required'] as const) : []),
  ];
}

/** The codes an operation may answer, in catalogue-independent but stable order. */
export function errorCodesOf(endpoint: EndpointDef): ErrorCode[] {
  const validated = endpoint.params || endpoint.query || endpoint.body;
  return [
    ...new Set<ErrorCode>([
      ...authErrors(endpoint),
      ...EVERY_REQUEST,
      ...(validated ? VALIDATION : []),
      ...(endpoint.projectParam ? (['not_found'] as const) : []),
      ...writeErrors(endpoint),
      ...(endpoint.auth === 'none' ? [] : (['unavailable'] as const)),
      ...(endpoint.errors ?? []),
      // The HTTP edge's own answers (gateway/src/http/edge-responses.ts owns the list).
      ...edgeErrorCodes(Boolean(endpoint.params)),
    ]),
  ];
}
