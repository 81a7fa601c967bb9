// zod → JSON Schema 2020-12 (the dialect OpenAPI 3.1 uses), without the $schema marker.
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
  });
  return rest;
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
