// GET /api/v1/openapi.json?format=tools: the same surface as an array of tools for a language
// model. Each tool's input merges path, query and body fields (the registry never reuses a name
// across them), and `x-http` says where each one goes.
import { acceptedBody } from '../registry/body-schema.js';
import { type EndpointDef } from '../registry/types.js';
import { fieldsOf } from './json-schema.js';

/** Whether the exactly-once key travels in the body (opId) or, for body-less writes, as a header. */
const keyedByHeader = (endpoint: EndpointDef): boolean =>
  endpoint.method !== 'GET' && acceptedBody(endpoint) === undefined;

function description(endpoint: EndpointDef): string {
  const notes = [
    endpoint.scope ? `Needs scope ${endpoint.scope.action} ${endpoint.scope.kind}.` : '',
    endpoint.amending ? 'Send ifMatch (the etag from a read, or *).' : '',
    endpoint.method !== 'GET'
      ? `Pass ${keyedByHeader(endpoint) ? 'idempotencyKey' : 'opId'} to make the write exactly-once.`
      : '',
    endpoint.dryRun ? 'Supports a dry run (header x-service-dry-run: 1).' : '',
    endpoint.confirm ? `Needs two-phase confirmation (${endpoint.confirm.effect}).` : '',
    endpoint.budgets?.length
      ? `Spends budget: ${endpoint.budgets.map((b) => `${b.amount} ${b.kind}`).join(', ')}.`
      : '',
  ];
  return [endpoint.summary, endpoint.description ?? '', ...notes].filter(Boolean).join(' ');
}

export function buildTools(registry: readonly EndpointDef[]): object[] {
  return registry.map((endpoint) => {
    const path = fieldsOf(endpoint.params);
    const query = fieldsOf(endpoint.query);
    const body = fieldsOf(acceptedBody(endpoint));
    const location = Object.fromEntries([
      ...Object.keys(path.properties).map((name) => [name, 'path']),
      ...Object.keys(query.properties).map((name) => [name, 'query']),
      ...Object.keys(body.properties).map((name) => [name, 'body']),
    ]);
    if (endpoint.amending) location.ifMatch = 'header:If-Match';
    if (keyedByHeader(endpoint)) location.idempotencyKey = 'header:Idempotency-Key';
    return {
      name: endpoint.operationId,
      description: description(endpoint),
      input_schema: {
        type: 'object',
        properties: {
          ...path.properties,
          ...query.properties,
          ...body.properties,
          ...(endpoint.amending
            ? { ifMatch: { type: 'string', description: 'The etag from a read, or *.' } }
            : {}),
          ...(keyedByHeader(endpoint)
            ? { idempotencyKey: { type: 'string', maxLength: 64, description: 'Exactly-once key.' } }
            : {}),
        },
        required: [
          ...path.required,
          ...query.required,
          ...body.required,
          ...(endpoint.amending ? ['ifMatch'] : []),
        ],
        additionalProperties: false,
      },
      'x-http': { method: endpoint.method, path: `/api/v1${endpoint.path}`, location },
    };
  });
}
