// zod → JSON Schema 2020-12 (the dialect OpenAPI 3.1 uses), without the $schema marker.
// A schema declared with `.meta({ id: 'Lead' })` is a named schema: in the OpenAPI document it is
// hoisted into components.schemas and referred to with $ref (namedJsonSchemaOf); everywhere else
// (request fields, the tool manifest) it stays inline, so those remain self-contained.
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** The global registry without `id`: descriptions and other metadata, but no $defs extraction. */
const inlineRegistry = {
  get(schema: z.core.$ZodType) {
    const meta = z.globalRegistry.get(schema);
    if (!meta || !('id' in meta)) return meta;
    const { id: _id, ...rest } = meta;
    return rest;
  },
} as unknown as typeof z.globalRegistry;

function convert(schema: z.ZodType, io: 'input' | 'output', named: boolean): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    ...(named ? {} : { metadata: inlineRegistry }),
    override: ({ jsonSchema }) => spellOutEnumRecord(jsonSchema as JsonSchema),
  });
  return rest;
}

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return convert(schema, io, false);
}

/**
 * The schema with every `#/components/schemas/<Name>` reference replaced by that component, for a
 * consumer that reads one schema on its own (a tool's output schema has no document around it).
 * The components it is given must not refer to themselves, directly or through others.
 */
export function inlineComponents(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (!node || typeof node !== 'object') return node;
    const ref = (node as JsonSchema).$ref;
    const name = typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined;
    if (name !== undefined && components[name]) return inline(components[name]);
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(value)]));
  };
  return inline(schema) as JsonSchema;
}

/** `#/components/schemas/Name`: where the document keeps a named schema. */
export const componentRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * The output schema of `schema` with every named schema in it moved into `components` (shared by
 * the whole document) and referred to by $ref. Two different schemas under one name fail the build.
 */
export function namedJsonSchemaOf(schema: z.ZodType, components: Record<string, JsonSchema>): JsonSchema {
  const { $defs, ...body } = convert(schema, 'output', true);
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) =>
        key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')
          ? [key, `#/components/schemas/${value.slice('#/$defs/'.length)}`]
          : [key, rewrite(value)],
      ),
    );
  };
  for (const [name, def] of Object.entries(($defs as Record<string, JsonSchema> | undefined) ?? {})) {
    if (name.startsWith('__schema')) throw new Error(`An unnamed shared schema (${name}) needs an id.`);
    addComponent(components, name, rewrite(def) as JsonSchema);
  }
  return rewrite(body) as JsonSchema;
}

/** Adds a named schema; the same name twice must be the same schema. */
export function addComponent(components: Record<string, JsonSchema>, name: string, schema: JsonSchema): void {
  const known = components[name];
  if (known && JSON.stringify(known) !== JSON.stringify(schema))
    throw new Error(`Two different schemas are named ${name}.`);
  components[name] = schema;
}

/**
 * A record keyed by an enum (`z.record(z.enum(...), v)`) becomes an object requiring every key
 * but defining none; name each key as a property too, so linters and generators see them.
 */
function spellOutEnumRecord(schema: JsonSchema): void {
  const keys = (schema.propertyNames as JsonSchema | undefined)?.enum;
  if (!Array.isArray(keys) || schema.properties || !schema.additionalProperties) return;
  schema.properties = Object.fromEntries(keys.map((key) => [String(key), schema.additionalProperties]));
}

/** The properties and required names of an object schema (path params, query, body). */
export function fieldsOf(schema: z.ZodObject | undefined): {
  properties: Record<string, JsonSchema>;
  required: string[];
} {
  if (!schema) return { properties: {}, required: [] };
  const json = jsonSchemaOf(schema, 'input');
  return {
    properties: (json.properties as Record<string, JsonSchema> | undefined) ?? {},
    required: (json.required as string[] | undefined) ?? [],
  };
}
