// GET /api/v1/openapi.json: the OpenAPI 3.1 contract, generated from the endpoint registry and
// the pipeline: every status, header and body the platform sends (creates and their replays, dry
// runs, confirmation demands, 428, clamped pages, every error code an operation may answer).
// Paths carry the /api/v1 prefix under the server `/`, so validating proxies route every request.
import { ERROR_CATALOGUE, type ErrorCode } from '@fieldops/kit';
import { AGENT_HEADER_MAX, IDEMPOTENCY_KEY_MAX } from '../limits.ts';
import { acceptedBody } from '../endpoint/body-schema.ts';
import { bucketOf, type EndpointDef } from '../endpoint/types.ts';
import { fieldsOf, jsonSchemaOf, namedJsonSchemaOf, type JsonSchema } from '../endpoint/json-schema.ts';
import { errorCodesOf } from '../pipeline/pipeline-errors.ts';
import { errorAnswerSchema, protocolSchemas } from './protocol-schemas.ts';
import { headersFor, recordMemberOf, successMembers } from './responses.ts';

export const API_PREFIX = '/api/v1';

/** `/leads/:id` → `/api/v1/leads/{id}`: the document's path of a registry path. */
export const openApiPath = (path: string): string => `${API_PREFIX}${path.replace(/:(\w+)/g, '{$1}')}`;

const header = (name: string, description: string, schema: JsonSchema = { type: 'string' }) => ({
  name,
  in: 'header',
  required: false,
  description,
  schema,
});

function headerParameters(endpoint: EndpointDef): object[] {
  const list = [
    header('X-Request-Id', 'Echoed back and recorded in the audit trail; minted when absent.', {
      type: 'string',
      maxLength: 200,
    }),
    header('x-service-dry-run', 'Send 1 to rehearse: nothing is applied (a read ignores it).', {
      type: 'string',
      enum: ['1'],
    }),
  ];
  if (endpoint.method === 'GET') return list;
  list.push(
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
  );
  if (endpoint.amending)
    list.push({ ...header('If-Match', 'The etag from a read, or * to overwrite.'), required: true });
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

function errorResponses(endpoint: EndpointDef, response: JsonSchema): Record<string, object> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(endpoint)) {
    const http = ERROR_CATALOGUE[code].http;
    byStatus.set(http, [...(byStatus.get(http) ?? []), code]);
  }
  // A stale If-Match answers 409 conflict with the record as it is now: the record the write answers.
  const record = endpoint.amending ? recordMemberOf(response) : undefined;
  const current = record
    ? {
        ConflictError: {
          current: { ...record.schema, description: 'On a stale If-Match: the record as it is now.' },
        },
      }
    : {};
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([http, list]) => [
        String(http),
        {
          description: `One of: ${list.join(', ')}.`,
          headers: headersFor(endpoint, http),
          content: { 'application/json': { schema: errorAnswerSchema(list, current) } },
        },
      ]),
  );
}

function successResponses(
  endpoint: EndpointDef,
  response: JsonSchema,
  components: DocumentSchemas,
): Record<string, object> {
  const schema = successMembers(endpoint, response, components);
  // A document answered as bytes: its media types, each a binary string (errors stay JSON).
  const content = endpoint.produces
    ? Object.fromEntries(
        endpoint.produces.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
      )
    : { 'application/json': { schema } };
  if (endpoint.accepted)
    return { '202': { description: 'Accepted: queued.', headers: headersFor(endpoint, 202), content } };
  const ok = { description: 'OK', headers: headersFor(endpoint, 200), content };
  if (!(endpoint.idempotent && endpoint.method === 'POST')) return { '200': ok };
  return {
    '200': {
      ...ok,
      description: 'A replay of an earlier write with the same key (replayed: true), a dedupe, or a dry run.',
    },
    '201': { description: 'Created.', headers: headersFor(endpoint, 201), content },
  };
}

function operation(endpoint: EndpointDef, components: DocumentSchemas): object {
  const body = acceptedBody(endpoint);
  const response = namedJsonSchemaOf(endpoint.response, components.named);
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    tags: [endpoint.tag],
    security: endpoint.auth === 'none' ? [] : [{ bearer: [] }],
    parameters: parameters(endpoint),
    ...(body
      ? {
          requestBody: {
            // Required only when the request cannot be made without one (a send takes none).
            required: Boolean(fieldsOf(body).required.length || endpoint.bodyRequiresOneOf?.length),
            content: { 'application/json': { schema: jsonSchemaOf(body, 'input') } },
          },
        }
      : {}),
    responses: { ...successResponses(endpoint, response, components), ...errorResponses(endpoint, response) },
    'x-scope': endpoint.scope ?? null,
    'x-rate-bucket': bucketOf(endpoint),
    'x-amending': Boolean(endpoint.amending),
    'x-dry-run': Boolean(endpoint.dryRun),
    'x-idempotent': endpoint.method !== 'GET',
    'x-confirmation': endpoint.confirm ?? null,
    'x-budgets': endpoint.budgets ?? [],
    ...(endpoint.machine ? { 'x-state-machine': endpoint.machine } : {}),
    ...(endpoint.gathers ? { 'x-gathers': endpoint.gathers } : {}),
  };
}

/**
 * The document's named schemas: `named` as declared (`.meta({ id })` and the protocol's), and
 * `answers`, those an operation answers whole, with the members the pipeline adds (ok, paging).
 */
interface DocumentSchemas {
  named: Record<string, JsonSchema>;
  answers: Record<string, JsonSchema>;
}

/** A schema answered whole carries `ok`: nesting it in another schema would be wrong, so it fails the build. */
function assertAnswersNotNested(schemas: Record<string, JsonSchema>, answers: readonly string[]): void {
  const text = JSON.stringify(schemas);
  for (const name of answers) {
    if (text.includes(`"#/components/schemas/${name}"`))
      throw new Error(
        `${name} is answered whole by an operation and nested in another schema; name only one.`,
      );
  }
}

function tagsOf(registry: readonly EndpointDef[]): object[] {
  return [...new Set(registry.map((endpoint) => endpoint.tag))].map((name) => ({
    name,
    description: `The ${name} operations of the v1 API.`,
  }));
}

export function buildOpenApi(registry: readonly EndpointDef[]): Record<string, unknown> {
  const paths: Record<string, Record<string, object>> = {};
  // Named schemas (`.meta({ id })` where a schema is declared) and the protocol's own.
  const components: DocumentSchemas = { named: protocolSchemas(), answers: {} };
  for (const endpoint of registry) {
    const path = openApiPath(endpoint.path);
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation(endpoint, components) };
  }
  const schemas = { ...components.named, ...components.answers };
  assertAnswersNotNested(schemas, Object.keys(components.answers));
  return {
    openapi: '3.1.0',
    info: {
      title: 'fieldops API',
      version: '1',
      description:
        'The v1 API of the fieldops platform. Frozen additively: a changed digest means new capability. Every failure is {ok:false, code, error, retryable}.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The host serving this document; every path starts with /api/v1.' }],
    tags: tagsOf(registry),
    security: [{ bearer: [] }],
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token from the tenant settings.' },
      },
    },
    paths,
  };
}
