// zod → JSON Schema 2020-12 (the dialect OpenAPI 3.1 uses), without the $schema marker.
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: ({ jsonSchema }) => spellOutEnumRecord(jsonSchema as JsonSchema),
  });
  return rest;
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
