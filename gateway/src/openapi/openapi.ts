// GET /api/v1/openapi.json: the OpenAPI 3.1 contract, generated from the endpoint registry.
import { ERROR_CATALOGUE, type ErrorCode } from '@fieldops/kit/errors';
import { EDGE_ERROR_FIELDS, edgeErrorCodes } from '../http/edge-responses.js';
import { AGENT_HEADER_MAX, IDEMPOTENCY_KEY_MAX } from '../limits.js';
import { COMMON_ERRORS, bucketOf, type EndpointDef } from '../registry/types.js';
import { fieldsOf, jsonSchemaOf, type JsonSchema } from './json-schema.js';

export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['ok', 'code', 'error', 'retryable'],
  properties: {
    ok: { const: false },
    code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
    error: { type: 'string', description: 'A sentence for a person; branch on code, never on this.' },
    retryable: { type: 'boolean' },
    required: {
      type: 'object',
      description: 'On a denial: the missing scope.',
      properties: { action: { type: 'string' }, kind: { type: 'string' } },
    },
    legalTransitions: { type: 'array', items: { type: 'string' } },
    legalTriggers: { type: 'array', items: { type: 'string' } },
    current: { type: 'object', description: 'On a stale If-Match: the record as it is now.' },
    confirmToken: { type: 'string' },
    confirmHeader: { type: 'string' },
    willDo: { type: 'object' },
    ...EDGE_ERROR_FIELDS,
  },
};

const header = (name: string, description: string, schema: JsonSchema = { type: 'string' }) => ({
  name,
  in: 'header',
  required: false,
  description,
  schema,
});

function headerParameters(endpoint: EndpointDef): object[] {
  if (endpoint.method === 'GET') return [];
  const list = [
    header('Idempotency-Key', 'Exactly-once key, equivalent to opId in the body.', {
      type: 'string',
      maxLength: IDEMPOTENCY_KEY_MAX,
    }),
    header('X-Agent-Run-Id', 'Recorded in the audit trail.', { type: 'string', maxLength: AGENT_HEADER_MAX }),
    header('X-Agent-Task', 'Recorded in the audit trail.', { type: 'string', maxLength: AGENT_HEADER_MAX }),
    header('X-Agent-Model', 'Recorded in the audit trail.', { type: 'string', maxLength: 200 }),
    header('X-Agent-Confirmed-By', 'Who authorised the operation: a claim, not proof.', {
      type: 'string',
      maxLength: 200,
    }),
  ];
  if (endpoint.amending)
    list.push({ ...header('If-Match', 'The etag from a read, or * to overwrite.'), required: true });
  if (endpoint.dryRun)
    list.push(header('x-service-dry-run', 'Send 1 to rehearse: nothing is applied.', { const: '1' }));
  if (endpoint.confirm)
    list.push(header('x-service-confirm', 'The confirmToken of the 409 confirmation_required.'));
  return list;
}

function parameters(endpoint: EndpointDef): object[] {
  const path = fieldsOf(endpoint.params);
  const query = fieldsOf(endpoint.query);
  return [
    ...Object.entries(path.properties).map(([name, schema]) => ({
      name,
      in: 'path',
      required: true,
      schema,
    })),
    ...Object.entries(query.properties).map(([name, schema]) => ({
      name,
      in: 'query',
      required: query.required.includes(name),
      schema,
    })),
    ...headerParameters(endpoint),
  ];
}

function errorResponses(endpoint: EndpointDef): Record<string, object> {
  const codes = new Set<ErrorCode>([...(endpoint.auth === 'none' ? [] : COMMON_ERRORS), ...endpoint.errors]);
  if (endpoint.amending) codes.add('precondition_required');
  if (endpoint.confirm) codes.add('confirmation_required');
  // The HTTP edge's own answers (gateway/src/http/edge-responses.ts owns the list).
  edgeErrorCodes(Boolean(endpoint.params)).forEach((code) => codes.add(code));
  if (endpoint.auth === 'token')
    ['read_only', 'out_of_scope', 'role_denied'].forEach((c) => codes.delete(c as ErrorCode));
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const http = ERROR_CATALOGUE[code].http;
    byStatus.set(http, [...(byStatus.get(http) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([http, list]) => [
      String(http),
      {
        description: `One of: ${list.join(', ')}.`,
        content: {
          'application/json': {
            schema: {
              ...errorSchema,
              properties: { ...(errorSchema.properties as object), code: { enum: list } },
            },
          },
        },
      },
    ]),
  );
}

function successStatus(endpoint: EndpointDef): string {
  return endpoint.idempotent && endpoint.method === 'POST' ? '201' : '200';
}

function operation(endpoint: EndpointDef): object {
  const response = jsonSchemaOf(endpoint.response, 'output');
  const success = {
    description: endpoint.idempotent ? 'Created (201); a replay or dedupe answers 200.' : 'OK',
    content: {
      'application/json': {
        schema: {
          allOf: [{ type: 'object', required: ['ok'], properties: { ok: { const: true } } }, response],
        },
      },
    },
  };
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    tags: [endpoint.tag],
    security: endpoint.auth === 'none' ? [] : [{ bearer: [] }],
    parameters: parameters(endpoint),
    ...(endpoint.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchemaOf(endpoint.body, 'input') } },
          },
        }
      : {}),
    responses: { [successStatus(endpoint)]: success, ...errorResponses(endpoint) },
    'x-scope': endpoint.scope ?? null,
    'x-rate-bucket': bucketOf(endpoint),
    'x-amending': Boolean(endpoint.amending),
    'x-dry-run': Boolean(endpoint.dryRun),
    'x-idempotent': Boolean(endpoint.idempotent),
    'x-confirmation': endpoint.confirm ?? null,
    'x-budgets': endpoint.budgets ?? [],
    ...(endpoint.machine ? { 'x-state-machine': endpoint.machine } : {}),
  };
}

export function buildOpenApi(registry: readonly EndpointDef[]): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const endpoint of registry) {
    const path = openApiPath(endpoint.path);
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation(endpoint) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'fieldops API',
      version: '1',
      description:
        'The v1 API of the fieldops platform. Frozen additively: a changed digest means new capability. Every failure is {ok:false, code, error, retryable}.',
    },
    servers: [{ url: '/api/v1' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token from the tenant settings.' },
      },
      schemas: { Error: errorSchema },
    },
    paths,
  };
}
