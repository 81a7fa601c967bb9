// GET /resources through HTTP (ENDPOINTS row 78): the kinds, their fields, endpoints, links and
// state machines, derived from the registry (the same source as openapi.json).
import {
  LEAD_STATUSES,
  LEAD_STATUS_MACHINE,
  DEAL_STAGE_MACHINE,
  PROJECT_LIFECYCLE_MACHINE,
} from '@fieldops/contracts';
import { describe, expect, it } from '@jest/globals';
import { type Body, type Client } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

interface Field {
  name: string;
  type: string;
  required: boolean;
  enum?: unknown[];
}
interface Kind {
  kind: string;
  member: string;
  scopeKind: string;
  projectScoped: boolean;
  readable: boolean;
  endpoints: { read: string; list: string | null; writes: string[] };
  fields: Field[];
  links: { field: string; kind: string }[];
  stateMachine: { field: string; moves: Record<string, string[]> } | null;
}

const { platform, api, tenantId } = await suiteTenant('Resources Co');

const kindsOf = async (client: Client): Promise<Kind[]> => {
  const reply = await client.get('/resources');
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return reply.body.kinds as Kind[];
};
const find = (kinds: Kind[], name: string): Kind => {
  const kind = kinds.find((k) => k.kind === name);
  if (!kind) throw new Error(`no kind ${name} in ${kinds.map((k) => k.kind).join(', ')}`);
  return kind;
};

describe('GET /resources', () => {
  it('lists the kinds with the scope kind each needs and its read and list endpoints', async () => {
    const kinds = await kindsOf(api);
    expect(find(kinds, 'lead')).toMatchObject({
      scopeKind: 'lead',
      projectScoped: false,
      readable: true,
      endpoints: { read: 'GET /api/v1/leads/:id', list: 'GET /api/v1/leads' },
    });
    expect(find(kinds, 'project')).toMatchObject({
      scopeKind: 'job',
      projectScoped: true,
      endpoints: { read: 'GET /api/v1/projects/:id', list: 'GET /api/v1/projects' },
    });
    expect(find(kinds, 'record')).toMatchObject({
      scopeKind: 'deliverable',
      projectScoped: true,
      endpoints: {
        read: 'GET /api/v1/projects/:id/records/:recordId',
        list: 'GET /api/v1/projects/:id/records',
      },
    });
    expect(find(kinds, 'record').endpoints.writes).toContain(
      'POST /api/v1/projects/:id/records/:recordId/void',
    );
    expect(find(kinds, 'project').endpoints.writes).not.toContain(
      'POST /api/v1/projects/:id/records/:recordId/void',
    );
    for (const name of ['customer', 'deal', 'proposal', 'invoice', 'webhook']) find(kinds, name);
    expect(new Set(kinds.map((k) => k.kind)).size).toBe(kinds.length);
  });

  it('gives the fields with their types, required ones and enums from the response schemas', async () => {
    const lead = find(await kindsOf(api), 'lead');
    const field = (name: string) => lead.fields.find((f) => f.name === name);
    expect(field('id')).toMatchObject({ type: 'string', required: true });
    expect(field('score')).toMatchObject({ type: 'integer', required: true });
    expect(field('email')).toMatchObject({ type: 'string', required: false });
    expect(field('status')).toMatchObject({ type: 'string', enum: [...LEAD_STATUSES] });
  });

  it('is one source of truth with openapi.json: the fields are the read response’s properties', async () => {
    const kinds = await kindsOf(api);
    type Operation = {
      responses: Record<string, { content: Record<string, { schema: Body }> }>;
    };
    const openapi = (await platform.anonymous.get('/openapi.json')).body as unknown as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, Named> };
    };
    type Named = { $ref?: string; properties?: object; oneOf?: Named[] };
    // A named schema ({$ref}) is read where the document keeps it.
    const resolved = (schema: Named | undefined): Named | undefined =>
      schema?.$ref ? openapi.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
    // A resource of several kinds (a project record: oneOf, one schema per kind) has every kind's fields.
    const fieldNames = (schema: Named | undefined): string[] => {
      const named = resolved(schema);
      if (!named?.oneOf) return Object.keys(named?.properties ?? {});
      return [...new Set(named.oneOf.flatMap(fieldNames))];
    };
    for (const kind of kinds) {
      const path = kind.endpoints.read.replace('GET ', '').replace(/:(\w+)/g, '{$1}');
      const operation = openapi.paths[path]?.get;
      expect(operation).toBeDefined();
      // The endpoint's response schema with ok beside it; the resource is the member it names.
      const response = resolved(operation?.responses['200']?.content['application/json']?.schema) as
        { properties: Record<string, Named> } | undefined;
      expect(fieldNames(response?.properties[kind.member])).toEqual(kind.fields.map((f) => f.name));
    }
  });

  it('infers links from <kind>Id fields', async () => {
    const kinds = await kindsOf(api);
    expect(find(kinds, 'deal').links).toEqual(
      expect.arrayContaining([{ field: 'customerId', kind: 'customer' }]),
    );
    expect(find(kinds, 'record').links).toEqual([{ field: 'projectId', kind: 'project' }]);
    expect(find(kinds, 'invoice').links).toEqual(
      expect.arrayContaining([
        { field: 'customerId', kind: 'customer' },
        { field: 'dealId', kind: 'deal' },
        { field: 'proposalId', kind: 'proposal' },
      ]),
    );
    // Every link points to a kind that is listed.
    const names = new Set(kinds.map((k) => k.kind));
    expect(kinds.flatMap((k) => k.links).every((link) => names.has(link.kind))).toBe(true);
    // A field like ownerId (a member) names no kind here, so it is no link.
    expect(find(kinds, 'lead').links).toEqual([]);
  });

  it('gives the state machine of a kind that has one, as contracts declare it', async () => {
    const kinds = await kindsOf(api);
    expect(find(kinds, 'lead').stateMachine).toEqual({ field: 'status', moves: LEAD_STATUS_MACHINE.moves });
    expect(find(kinds, 'deal').stateMachine).toEqual({ field: 'stage', moves: DEAL_STAGE_MACHINE.moves });
    expect(find(kinds, 'project').stateMachine).toEqual({
      field: 'status',
      moves: PROJECT_LIFECYCLE_MACHINE.moves,
    });
    expect(find(kinds, 'webhook').stateMachine).toBeNull();
  });

  it('says which kinds the calling token can read', async () => {
    const leadsOnly = await platform.token(tenantId, { role: 'Staff', permissions: { lead: ['read'] } });
    const kinds = await kindsOf(leadsOnly.api);
    expect(kinds.filter((k) => k.readable).map((k) => k.kind)).toEqual(['lead']);
    const staff = await platform.token(tenantId, { role: 'Staff' });
    expect(find(await kindsOf(staff.api), 'webhook').readable).toBe(false);
    expect(find(await kindsOf(staff.api), 'deal').readable).toBe(true);
  });

  it('needs a token', async () => {
    const reply = await platform.anonymous.get('/resources');
    expect([reply.status, reply.body.code]).toEqual([401, 'no_credential']);
  });
});
