// The members and headers the pipeline adds to every answer (endpoint-handler's send, the rate
// bucket, the request id, authentication), declared once so the document says what is sent.
import type { EndpointDef } from '../endpoint/types.ts';
import { addComponent, componentRef, type JsonSchema } from '../endpoint/json-schema.ts';

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

const WRITE_KEYS = new Set(['replayed', 'dryRun', 'deduped']);

/**
 * The record a write answers under its name (`{lead: Lead, replayed}` → Lead): typed as the `current`
 * of a stale If-Match and as the would-be record of a dry run. Undefined when the answer has none.
 */
export function recordMemberOf(response: JsonSchema): { name: string; schema: JsonSchema } | undefined {
  const members = Object.entries(
    (response.properties as Record<string, JsonSchema> | undefined) ?? {},
  ).filter(([name, schema]) => !WRITE_KEYS.has(name) && typeof schema.$ref === 'string');
  const [only] = members;
  return members.length === 1 && only ? { name: only[0], schema: only[1] } : undefined;
}

/**
 * The answer of a successful call: the declared response plus what the pipeline adds. A response
 * named at its root (`LeadPage`, `Me`) names the whole answer: its component gets those members.
 */
export function successMembers(
  endpoint: EndpointDef,
  response: JsonSchema,
  components: { named: Record<string, JsonSchema>; answers: Record<string, JsonSchema> },
): JsonSchema {
  if (endpoint.bare) return response;
  const withAdded = (schema: JsonSchema): JsonSchema => ({
    ...schema,
    type: 'object',
    required: ['ok', ...((schema.required as string[] | undefined) ?? [])],
    properties: {
      ok: { const: true },
      ...((schema.properties as Record<string, JsonSchema> | undefined) ?? {}),
      ...(endpoint.list ? PAGE_MEMBERS : {}),
      ...(endpoint.method === 'GET' ? {} : WRITE_MEMBERS),
    },
  });
  const named = typeof response.$ref === 'string' ? response.$ref.replace('#/components/schemas/', '') : '';
  const declared = named ? components.named[named] : undefined;
  if (declared) addComponent(components.answers, named, withAdded(declared));
  const answer = named ? response : withAdded(response);
  if (!endpoint.dryRun) return answer;
  const record = recordMemberOf(response);
  const dryRun = record
    ? {
        allOf: [
          componentRef('DryRun'),
          {
            type: 'object',
            description: `The ${record.name} as the write would leave it.`,
            properties: { [record.name]: record.schema },
          },
        ],
      }
    : componentRef('DryRun');
  return { anyOf: [answer, dryRun] };
}
