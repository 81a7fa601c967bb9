// GET /api/v1/openapi.json?format=tools: the same surface as an array of tools for a language
// model. Each tool's input merges path, query and body fields (the registry never reuses a name
// across them) and one input per protocol header the operation honours (If-Match, Idempotency-Key,
// the confirmation token, the dry run, X-Agent-*); `x-http` says where each one goes, so a generic
// executor needs nothing but the manifest (docs/agents.md). The dialects (mcp, openai) are
// rewritings of this default shape (tool-dialects.ts).
import { AGENT_HEADER_MAX, IDEMPOTENCY_KEY_MAX, PAGE_LIMIT } from '../limits.ts';
import { CONFIRM_HEADER, DRY_RUN_HEADER } from '../pipeline/write-headers.ts';
import { acceptedBody } from '../endpoint/body-schema.ts';
import { type EndpointDef } from '../endpoint/types.ts';
import { fieldsOf, type JsonSchema } from '../endpoint/json-schema.ts';
import { toolTerms } from './tool-terms.ts';

/** One tool of the default manifest. */
export interface Tool {
  name: string;
  description: string;
  input_schema: JsonSchema & { properties: Record<string, JsonSchema>; required: string[] };
  'x-http': {
    method: EndpointDef['method'];
    path: string;
    /** Input name → `path`, `query`, `body` or `header:<Header-Name>`. */
    location: Record<string, string>;
  };
}

/** Whether the exactly-once key travels in the body (opId) or, for body-less writes, as a header. */
const keyedByHeader = (endpoint: EndpointDef): boolean =>
  endpoint.method !== 'GET' && acceptedBody(endpoint) === undefined;

interface HeaderInput {
  input: string;
  header: string;
  /** Whether the operation honours the header. */
  honoured: (endpoint: EndpointDef) => boolean;
  required?: (endpoint: EndpointDef) => boolean;
  schema: JsonSchema;
}

const isWrite = (endpoint: EndpointDef): boolean => endpoint.method !== 'GET';

/**
 * The protocol headers as tool inputs (spec Conventions 4, 5, 7; Authentication 5, 6). Which
 * operation honours which is read from its declaration: amending (If-Match), a write without a
 * body (Idempotency-Key; a body carries opId), confirm (the token), dryRun, any write (X-Agent-*,
 * recorded in the audit trail).
 */
export const HEADER_INPUTS: readonly HeaderInput[] = [
  {
    input: 'ifMatch',
    header: 'If-Match',
    honoured: (endpoint) => Boolean(endpoint.amending),
    required: () => true,
    schema: {
      type: 'string',
      description:
        'Always: the etag from your latest read of the record, or * to overwrite. A stale one answers 409 conflict with the current record.',
    },
  },
  {
    input: 'idempotencyKey',
    header: 'Idempotency-Key',
    honoured: keyedByHeader,
    schema: {
      type: 'string',
      maxLength: IDEMPOTENCY_KEY_MAX,
      description:
        'A fresh key per action, the same on a retry: the write happens once (a retry answers replayed: true).',
    },
  },
  {
    input: 'confirmToken',
    header: CONFIRM_HEADER,
    honoured: (endpoint) => Boolean(endpoint.confirm),
    schema: {
      type: 'string',
      description:
        'Leave out on the first call, which answers 409 confirmation_required with confirmToken and willDo. Once a person has approved willDo, repeat the identical call with confirmToken set to it (within 10 minutes).',
    },
  },
  {
    input: 'dryRun',
    header: DRY_RUN_HEADER,
    honoured: (endpoint) => Boolean(endpoint.dryRun),
    schema: {
      type: 'string',
      enum: ['1'],
      description:
        '"1" rehearses: the answer says willDo and effects, and nothing is applied. Leave out to perform.',
    },
  },
  {
    input: 'agentConfirmedBy',
    header: 'X-Agent-Confirmed-By',
    honoured: isWrite,
    schema: {
      type: 'string',
      maxLength: 200,
      description:
        'Who authorised this write, when a person did (always with confirmToken). Audited as your claim.',
    },
  },
  {
    input: 'agentRunId',
    header: 'X-Agent-Run-Id',
    honoured: isWrite,
    schema: {
      type: 'string',
      maxLength: AGENT_HEADER_MAX,
      description: 'Your run id, the same on every write of the run (GET /audit?runId= lists them).',
    },
  },
  {
    input: 'agentTask',
    header: 'X-Agent-Task',
    honoured: isWrite,
    schema: {
      type: 'string',
      maxLength: AGENT_HEADER_MAX,
      description: 'The task you are carrying out, in a sentence. Audited.',
    },
  },
  {
    input: 'agentModel',
    header: 'X-Agent-Model',
    honoured: isWrite,
    schema: {
      type: 'string',
      maxLength: 200,
      description: 'Your model name. Audited.',
    },
  },
];

/** A list's `limit`: the registry leaves it unbounded because out-of-range values are clamped. */
const PAGE_LIMIT_INPUT: JsonSchema = {
  type: 'integer',
  minimum: PAGE_LIMIT.min,
  maximum: PAGE_LIMIT.max,
  description: `Page size, ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max} (default ${PAGE_LIMIT.default}); a value outside is clamped and the answer says limitClamped.`,
};

function description(endpoint: EndpointDef): string {
  const notes = [
    endpoint.scope ? `Needs scope ${endpoint.scope.action} ${endpoint.scope.kind}.` : '',
    endpoint.amending ? 'Send ifMatch (the etag from a read, or *).' : '',
    endpoint.method !== 'GET'
      ? `Pass ${keyedByHeader(endpoint) ? 'idempotencyKey' : 'opId'} to make the write exactly-once.`
      : '',
    endpoint.dryRun ? 'Supports a dry run (input dryRun: "1").' : '',
    // retryable is the spec's per code, and conflict is retryable; an illegal move is not.
    endpoint.machine && endpoint.method !== 'GET' ? 'On conflict, use legalMoves; a repeat fails.' : '',
    endpoint.confirm
      ? `Needs two-phase confirmation (${endpoint.confirm.effect}): the first call answers 409 confirmation_required; repeat it with confirmToken.`
      : '',
    endpoint.budgets?.length
      ? `Spends budget: ${endpoint.budgets.map((b) => `${b.amount} ${b.kind}`).join(', ')}.`
      : '',
  ];
  return [endpoint.summary, endpoint.description ?? '', ...notes].filter(Boolean).join(' ');
}

/** Rewrites HTTP words (headers, paths) into tool words; identity when no registry is known. */
type Terms = (text: string) => string;

/** Every description string in a schema, in tool words (a copy: the registry's schemas are shared). */
function inTerms<S>(schema: S, terms: Terms): S {
  if (Array.isArray(schema)) return schema.map((item: unknown) => inTerms(item, terms)) as S;
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'description' && typeof value === 'string' ? terms(value) : inTerms(value, terms),
    ]),
  ) as S;
}

export function buildTool(endpoint: EndpointDef, terms: Terms = (text) => text): Tool {
  const path = fieldsOf(endpoint.params);
  const query = fieldsOf(endpoint.query);
  const body = fieldsOf(acceptedBody(endpoint));
  if (endpoint.list && query.properties.limit) query.properties.limit = PAGE_LIMIT_INPUT;
  const location: Record<string, string> = Object.fromEntries([
    ...Object.keys(path.properties).map((name) => [name, 'path']),
    ...Object.keys(query.properties).map((name) => [name, 'query']),
    ...Object.keys(body.properties).map((name) => [name, 'body']),
  ]);
  const headers = HEADER_INPUTS.filter((spec) => spec.honoured(endpoint));
  for (const { input } of headers) {
    if (location[input]) throw new Error(`${endpoint.operationId}: the input ${input} is also a field.`);
  }
  for (const { input, header } of headers) location[input] = `header:${header}`;
  return {
    name: endpoint.operationId,
    description: terms(description(endpoint)),
    input_schema: inTerms(
      {
        type: 'object',
        properties: {
          ...path.properties,
          ...query.properties,
          ...body.properties,
          ...Object.fromEntries(headers.map(({ input, schema }) => [input, schema])),
        },
        required: [
          ...path.required,
          ...query.required,
          ...body.required,
          ...headers.filter((spec) => spec.required?.(endpoint)).map(({ input }) => input),
        ],
        additionalProperties: false,
      },
      terms,
    ),
    'x-http': { method: endpoint.method, path: `/api/v1${endpoint.path}`, location },
  };
}

/** The tool words of a registry: each protocol header as its input, each path as its tool. */
export const termsOf = (registry: readonly EndpointDef[]): Terms => toolTerms(registry, HEADER_INPUTS);

export function buildTools(registry: readonly EndpointDef[]): Tool[] {
  const terms = termsOf(registry);
  return registry.map((endpoint) => buildTool(endpoint, terms));
}
