// The tool manifest in the shapes agent frameworks load (GET /api/v1/openapi.json?format=tools
// &dialect=...): `default` is tools.ts's own shape ({name, description, input_schema, x-http});
// `mcp` is the Model Context Protocol's Tool; `openai` is a function tool in strict mode, its
// parameters rewritten into the subset of JSON Schema that OpenAI's structured outputs accept.
// Every dialect is derived from the same registry entry, so they never disagree; docs/agents.md.
import { bucketOf, type EndpointDef } from '../endpoint/types.ts';
import type { BudgetKind } from '../limits.ts';
import { inlineComponents, jsonSchemaOf, type JsonSchema } from '../endpoint/json-schema.ts';
import { protocolSchemas } from './protocol-schemas.ts';
import { successMembers } from './responses.ts';
import { buildTool, termsOf, type Tool } from './tools.ts';

export const TOOL_DIALECTS = ['default', 'mcp', 'openai'] as const;
export type ToolDialect = (typeof TOOL_DIALECTS)[number];

/** Budgets whose spending reaches people or systems outside the tenant (an email, a charge ...). */
const OPEN_WORLD_BUDGETS: readonly BudgetKind[] = ['emails', 'sms', 'charges', 'publishes'];

/** `createLead` → `Create lead`. */
const titleOf = (operationId: string): string => {
  const words = operationId.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * A refusal as a tool answers it: the spec's envelope, and what would change the outcome. A
 * retryable code may succeed repeated unchanged; for the others read legalMoves (a move that is
 * legal now and the tool that makes it), current (the record as it is now), convertedTo, or
 * confirmToken and willDo (a person approves, then the call is repeated with confirmToken).
 */
export const TOOL_ERROR: JsonSchema = {
  type: 'object',
  required: ['ok', 'code', 'error', 'retryable'],
  properties: {
    ok: { const: false },
    code: { type: 'string' },
    error: { type: 'string' },
    retryable: { type: 'boolean' },
    legalMoves: { type: 'array' },
    legalTriggers: { type: 'array' },
    legalTransitions: { type: 'array' },
    current: {},
    convertedTo: { type: 'object' },
    convertibleFrom: { type: 'array' },
    confirmToken: { type: 'string' },
    willDo: { type: 'object' },
    required: { type: 'object' },
  },
};

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/**
 * The MCP hints, read from the declaration: a GET only reads; an operation needing confirmation
 * (irreversible or binding) or a DELETE is destructive; a read, an amendment, a PUT, a DELETE and a
 * keyed write (the same arguments carry the same opId) are idempotent; an operation that spends
 * an email, SMS, charge or publish budget reaches the open world.
 */
export function mcpAnnotations(endpoint: EndpointDef): Omit<McpTool['annotations'], 'title'> {
  const read = endpoint.method === 'GET';
  return {
    readOnlyHint: read,
    destructiveHint: !read && (Boolean(endpoint.confirm) || endpoint.method === 'DELETE'),
    idempotentHint:
      read || ['PATCH', 'PUT', 'DELETE'].includes(endpoint.method) || Boolean(endpoint.idempotent),
    openWorldHint: (endpoint.budgets ?? []).some((budget) => OPEN_WORLD_BUDGETS.includes(budget.kind)),
  };
}

/**
 * A schema without its field descriptions: an output schema gives a client the shape to check and
 * a model the names; the sentences are in the OpenAPI document (getOpenApi), and spelt out again
 * in every tool they were a fifth of the manifest. A property named `description` is a schema, kept.
 */
function withoutDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDescriptions);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'description' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutDescriptions(value)]),
  );
}

export function mcpTool(endpoint: EndpointDef, tool: Tool = buildTool(endpoint)): McpTool {
  // Inline: no document around it, so the protocol's named schemas (DryRun, Effect) are spelt out.
  const full = inlineComponents(
    successMembers(endpoint, jsonSchemaOf(endpoint.response, 'output'), { named: {}, answers: {} }),
    protocolSchemas(),
  );
  const output = withoutDescriptions(full) as JsonSchema;
  const title = titleOf(endpoint.operationId);
  return {
    name: tool.name,
    title,
    description: `${tool.description} Rate bucket: ${bucketOf(endpoint)}.`,
    inputSchema: tool.input_schema,
    // MCP wants an object at the root. A failed call answers the error envelope as
    // structuredContent too, and a client checks it against this schema (the SDK does), so each
    // answer the tool can give is one branch: the success (or a dry run) and the refusal.
    outputSchema: {
      type: 'object',
      anyOf: [...((output.anyOf as JsonSchema[] | undefined) ?? [output]), TOOL_ERROR],
    },
    annotations: { title, ...mcpAnnotations(endpoint) },
  };
}

export interface OpenAiTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: true;
}

export function openAiTool(tool: Tool): OpenAiTool {
  return {
    type: 'function',
    name: tool.name,
    description: `${tool.description} Null (or an empty list for a map) leaves an input out.`,
    parameters: strictSchema(tool.input_schema),
    strict: true,
  };
}

// ---- OpenAI strict mode -------------------------------------------------------------------------

/** Keywords strict mode accepts (structured outputs, "Supported schemas"). */
export const STRICT_KEYWORDS = new Set([
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

export const STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

const SAFE = Number.MAX_SAFE_INTEGER;

/** A sentence for each bound strict mode cannot carry (the server still enforces it). */
function unexpressed(schema: JsonSchema): string[] {
  const notes: string[] = [];
  if (typeof schema.minLength === 'number' && schema.minLength > 0)
    notes.push(`at least ${schema.minLength} characters`);
  if (typeof schema.maxLength === 'number') notes.push(`at most ${schema.maxLength} characters`);
  if (typeof schema.minProperties === 'number') notes.push(`at least ${schema.minProperties} keys`);
  if (typeof schema.maxProperties === 'number') notes.push(`at most ${schema.maxProperties} keys`);
  if (schema.uniqueItems === true) notes.push('no duplicates');
  if (typeof schema.format === 'string' && !STRICT_FORMATS.has(schema.format))
    notes.push(`format ${schema.format}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  const keyBound = schema.propertyNames as JsonSchema | undefined;
  if (keyBound && typeof keyBound.maxLength === 'number')
    notes.push(`keys at most ${keyBound.maxLength} characters`);
  return notes;
}

const withNotes = (description: unknown, notes: string[]): string | undefined => {
  const text = typeof description === 'string' ? description : '';
  if (!notes.length) return text || undefined;
  const sentence = `${notes.join(', ')}.`;
  return text ? `${text} (${sentence})` : sentence.charAt(0).toUpperCase() + sentence.slice(1);
};

const isOpenMap = (schema: JsonSchema): boolean =>
  (schema.type === 'object' || schema.additionalProperties !== undefined) &&
  !schema.properties &&
  schema.additionalProperties !== false;

const ANY_VALUE: JsonSchema = {
  anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }],
};

/** `schema` or null: how strict mode spells an optional property. */
function nullable(schema: JsonSchema): JsonSchema {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('null') || schema.const === null) return schema;
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (anyOf?.some((member) => member.type === 'null')) return schema;
  const { description, ...rest } = schema;
  return {
    ...(description ? { description } : {}),
    anyOf: [...(anyOf ?? [rest]), { type: 'null' }],
  };
}

/**
 * Rewrites a JSON Schema into strict mode's subset: every object closed with every property
 * required (optional ones nullable), an open map as a list of {key, value} entries, no untyped
 * schema, and the bounds strict mode cannot carry stated in the description instead.
 */
export function strictSchema(schema: JsonSchema): JsonSchema {
  const notes = unexpressed(schema);
  if (isOpenMap(schema)) {
    const value = schema.additionalProperties;
    const entry = {
      type: 'object',
      properties: {
        key: { type: 'string' },
        value: strictSchema(typeof value === 'object' && value !== null ? (value as JsonSchema) : {}),
      },
      required: ['key', 'value'],
      additionalProperties: false,
    };
    return {
      type: 'array',
      description: withNotes(schema.description, [
        'a map given as a list of {key, value} entries',
        ...notes.filter((note) => !note.startsWith('default')),
      ]),
      items: entry,
    };
  }
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (!STRICT_KEYWORDS.has(keyword)) continue;
    if (keyword === 'format' && !STRICT_FORMATS.has(String(value))) continue;
    if ((keyword === 'minimum' || keyword === 'maximum') && Math.abs(Number(value)) >= SAFE) continue;
    out[keyword] = value;
  }
  const anyOf = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (anyOf) out.anyOf = anyOf.map(strictSchema);
  if (schema.items && typeof schema.items === 'object') out.items = strictSchema(schema.items as JsonSchema);
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties) {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    out.type = 'object';
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, member]) => {
        const strict = strictSchema(member);
        return [name, required.has(name) ? strict : nullable(strict)];
      }),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false)
      notes.push('other keys are not taken in this dialect');
  }
  if (out.type === undefined && !out.anyOf && out.enum === undefined && out.const === undefined) {
    const description = withNotes(out.description, notes);
    return { ...(description ? { description } : {}), ...ANY_VALUE };
  }
  const description = withNotes(out.description, notes);
  if (description) out.description = description;
  return out;
}

export function toolsIn(endpoints: readonly EndpointDef[], dialect: ToolDialect): object[] {
  const terms = termsOf(endpoints);
  return endpoints.map((endpoint) => {
    const tool = buildTool(endpoint, terms);
    if (dialect === 'mcp') return mcpTool(endpoint, tool);
    if (dialect === 'openai') return openAiTool(tool);
    return tool;
  });
}
