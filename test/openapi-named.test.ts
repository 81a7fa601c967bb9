// The document is exact and named (issue 25): every resource, error family, dry run, confirmation
// demand, /me, /capabilities and page is a named schema the operations refer to, and no response
// schema leaves an object untyped (a client generated from it would read Record<string, never>).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { RECORD_KIND_FIELDS, RECORD_KINDS, recordStatusesOf } from '@fieldops/contracts';
import { describe, expect, it } from '@jest/globals';

type Schema = Record<string, unknown>;
const doc = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '..', 'gateway', 'openapi', 'openapi.json'), 'utf8'),
) as {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
};

const isObjectType = (schema: Schema): boolean =>
  schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));

/** An object that says nothing of its members: no properties, and no schema for its values. */
function untyped(schema: Schema): boolean {
  if (!isObjectType(schema)) return false;
  if (schema.properties || schema.patternProperties) return false;
  if (schema.allOf || schema.anyOf || schema.oneOf || schema.$ref) return false;
  const values = schema.additionalProperties;
  return (
    values === undefined ||
    values === true ||
    (typeof values === 'object' && Object.keys(values as object).length === 0)
  );
}

/** Every untyped object under `schema`, by its JSON pointer. */
function untypedIn(schema: unknown, at: string, found: string[]): string[] {
  if (Array.isArray(schema)) schema.forEach((item, i) => untypedIn(item, `${at}/${i}`, found));
  else if (schema && typeof schema === 'object') {
    if (untyped(schema as Schema)) found.push(at);
    for (const [key, value] of Object.entries(schema)) untypedIn(value, `${at}/${key}`, found);
  }
  return found;
}

describe('the OpenAPI document', () => {
  it('leaves no object untyped in any response schema or named schema', () => {
    const found: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(operations))
        for (const [status, response] of Object.entries(operation.responses))
          untypedIn(response.content?.['application/json']?.schema, `${method} ${path} ${status}`, found);
    untypedIn(doc.components.schemas, '#/components/schemas', found);
    expect(found).toEqual([]);
  });

  it('the walker finds an untyped object where there is one', () => {
    expect(untypedIn({ properties: { willDo: { type: 'object' } } }, '#', [])).toEqual([
      '#/properties/willDo',
    ]);
    expect(untypedIn({ type: 'object', additionalProperties: {} }, '#', [])).toEqual(['#']);
    expect(untypedIn({ type: 'object', additionalProperties: { type: 'string' } }, '#', [])).toEqual([]);
  });

  it('names every resource, the error families, the protocol answers and the pages', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        ...['Lead', 'Customer', 'Deal', 'Proposal', 'Invoice', 'Project', 'ProjectRecord', 'Booking'],
        ...['CaptureSession', 'Scene', 'Quantities', 'Band', 'Takeoff', 'Export', 'Report', 'Webhook'],
        ...['AuthError', 'ScopeError', 'ValidationError', 'NotFoundError', 'ConflictError'],
        ...['ConfirmationRequired', 'PreconditionRequired', 'RateLimited', 'ServerError'],
        ...['DryRun', 'WillDo', 'Effect', 'LegalMove', 'Me', 'Capabilities'],
        ...['LeadPage', 'CustomerPage', 'DealPage', 'ProposalPage', 'InvoicePage', 'WebhookPage'],
      ]),
    );
  });

  it('refers to the named schemas with $ref from the operations', () => {
    const schemaOf = (path: string, method: string, status: string) =>
      JSON.stringify(doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema);
    expect(schemaOf('/api/v1/leads', 'get', '200')).toBe('{"$ref":"#/components/schemas/LeadPage"}');
    expect(schemaOf('/api/v1/me', 'get', '200')).toBe('{"$ref":"#/components/schemas/Me"}');
    expect(schemaOf('/api/v1/leads/{id}', 'patch', '200')).toContain('#/components/schemas/Lead"');
    expect(schemaOf('/api/v1/leads/{id}', 'patch', '200')).toContain('#/components/schemas/DryRun"');
    expect(schemaOf('/api/v1/leads/{id}', 'patch', '409')).toContain('#/components/schemas/ConflictError"');
    expect(schemaOf('/api/v1/proposals/{id}/send', 'post', '409')).toContain(
      '#/components/schemas/ConfirmationRequired"',
    );
  });

  it('types a project record per kind: a union discriminated on kind, from the kinds’ data', () => {
    const name = (kind: string) =>
      `${kind.replace(/(?:^|-)(\w)/g, (_match: string, letter: string) => letter.toUpperCase())}Record`;
    expect(doc.components.schemas.ProjectRecord?.oneOf).toEqual(
      RECORD_KINDS.map((kind) => ({ $ref: `#/components/schemas/${name(kind)}` })),
    );
    for (const kind of RECORD_KINDS) {
      const schema = doc.components.schemas[name(kind)] as { properties: Record<string, Schema> };
      expect(schema.properties.kind).toEqual({ type: 'string', enum: [kind] });
      expect(schema.properties.status?.enum).toEqual(recordStatusesOf(kind));
      // The kind's own fields (RECORD_KIND_FIELDS) and none of another kind's.
      const own = ['title', 'subject', 'question', 'number', 'revision'].filter(
        (field) => field in schema.properties,
      );
      expect(new Set(own)).toEqual(new Set(RECORD_KIND_FIELDS[kind].fields));
    }
  });

  it('types a stale If-Match’s current as the record the write answers', () => {
    const conflict = doc.paths['/api/v1/leads/{id}']?.patch?.responses['409']?.content?.['application/json']
      ?.schema as Schema;
    expect(JSON.stringify(conflict)).toContain('"current":{"$ref":"#/components/schemas/Lead"');
  });
});
