// The members and headers the pipeline adds to every answer (endpoint-handler's send, the rate
// bucket, the request id, authentication), declared once so the document says what is sent.
import type { EndpointDef } from '../registry/types.js';
import type { JsonSchema } from './json-schema.js';

interface HeaderSpec {
  description: string;
  /** Sent on every answer with one of these statuses ('2xx' for any success). */
  on: readonly (number | '2xx' | 'all')[];
  schema: JsonSchema;
}

const HEADERS: Record<string, HeaderSpec> = {
  'X-Request-Id': {
    description: 'The request id (echoed or minted).',
    on: ['all'],
    schema: { type: 'string' },
  },
  'X-RateLimit-Bucket': {
    description: 'The rate bucket this operation draws from.',
    on: ['all'],
    schema: { type: 'string', enum: ['reads', 'writes'] },
  },
  'X-RateLimit-Limit': {
    description: 'Requests per minute of the bucket.',
    on: ['2xx'],
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the bucket now.',
    on: ['2xx'],
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'Retry-After': {
    description: 'Seconds until the bucket or budget allows the call again.',
    on: [429],
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'WWW-Authenticate': { description: 'The Bearer challenge.', on: [401], schema: { type: 'string' } },
  ETag: {
    description: 'The version tag of the record read or written; send it as If-Match.',
    on: [],
    schema: { type: 'string' },
  },
};

const applies = (spec: HeaderSpec, status: number): boolean =>
  spec.on.some((on) => on === 'all' || on === status || (on === '2xx' && status < 300));

/** The response headers of one status: required where the pipeline always sends them. */
export function headersFor(endpoint: EndpointDef, status: number): Record<string, object> {
  const success = status < 300;
  return Object.fromEntries(
    Object.entries(HEADERS)
      .filter(
        ([name, spec]) =>
          applies(spec, status) || (name === 'ETag' && success && endpoint.method !== 'DELETE'),
      )
      .map(([name, spec]) => [
        name,
        { description: spec.description, required: applies(spec, status), schema: spec.schema },
      ]),
  );
}

const PAGE_MEMBERS: Record<string, JsonSchema> = {
  limit: { type: 'integer', description: 'The page size applied.' },
  limitClamped: {
    type: 'boolean',
    description: 'Present and true when the requested limit was out of range.',
  },
  requestedLimit: { type: 'integer', description: 'With limitClamped: the limit as requested.' },
};

const WRITE_MEMBERS: Record<string, JsonSchema> = {
  replayed: {
    type: 'boolean',
    description:
      'true when this answers an earlier write with the same key, or the target state was already reached.',
  },
  deduped: {
    type: 'boolean',
    description: 'true when an existing record was returned instead of a new one.',
  },
};

const DRY_RUN: JsonSchema = {
  type: 'object',
  description: 'A dry run (x-service-dry-run: 1): what the write would do; nothing was applied.',
  required: ['ok', 'dryRun', 'applied', 'willDo', 'effects'],
  properties: {
    ok: { const: true },
    dryRun: { const: true },
    applied: { const: false },
    willDo: { type: 'string', description: 'One sentence: what the write would do.' },
    effects: {
      type: 'array',
      description: 'Every create, update and event the write would make, with its field changes.',
      items: { type: 'object' },
    },
    details: { type: 'object', description: 'Who the operation reaches (masked) and the money at stake.' },
  },
};

/** The answer of a successful call: the declared response plus what the pipeline adds. */
export function successMembers(endpoint: EndpointDef, response: JsonSchema): JsonSchema {
  if (endpoint.bare) return response;
  const properties = {
    ok: { const: true },
    ...((response.properties as Record<string, JsonSchema> | undefined) ?? {}),
    ...(endpoint.list ? PAGE_MEMBERS : {}),
    ...(endpoint.method === 'GET' ? {} : WRITE_MEMBERS),
  };
  const required = ['ok', ...((response.required as string[] | undefined) ?? [])];
  const answer = { ...response, type: 'object', required, properties };
  return endpoint.dryRun ? { anyOf: [answer, DRY_RUN] } : answer;
}
