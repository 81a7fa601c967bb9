// The machine-readable contract (spec: Introspection and contract, Versioning).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestPlatform, type Body, type TestPlatform } from './support/harness.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.stop());

type Operation = Body & {
  operationId: string;
  parameters: { name: string; in: string; required: boolean }[];
  responses: Body;
};

describe('GET /openapi.json', () => {
  it('serves OpenAPI 3.1 without a token, generated from the registry', async () => {
    const reply = await platform.anonymous.get('/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toBe('3.1.0');
    const paths = reply.body.paths as Record<string, Record<string, Operation>>;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining(['/leads', '/leads/{id}', '/customers', '/customers/{id}', '/audit']),
    );
    const create = paths['/leads']?.post as Operation;
    expect(create.operationId).toBe('createLead');
    expect(create['x-scope']).toEqual({ action: 'create', kind: 'lead' });
    expect(create['x-dry-run']).toBe(true);
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '429']),
    );
    const body = ((create.requestBody as Body).content as Record<string, { schema: Body }>)[
      'application/json'
    ]?.schema;
    expect(body).toMatchObject({ additionalProperties: false, required: ['name'] });
    const patch = paths['/leads/{id}']?.patch as Operation;
    expect(patch.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'If-Match', required: true })]),
    );
    expect(Object.keys(patch.responses)).toContain('428');
    expect(patch['x-state-machine']).toMatchObject({
      field: 'status',
      moves: { Lost: ['New'], Converted: [] },
    });
  });

  it('is stable: the same digest on every fetch', async () => {
    const a = await platform.anonymous.get('/openapi.json');
    const b = await platform.anonymous.get('/openapi.json');
    expect(a.body.digest).toBe(b.body.digest);
    expect(a.body.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('serves the same surface as tools with format=tools', async () => {
    const doc = await platform.anonymous.get('/openapi.json');
    const reply = await platform.anonymous.get('/openapi.json?format=tools');
    const tools = reply.body.tools as {
      name: string;
      description: string;
      input_schema: Body;
      'x-http': Body;
    }[];
    const operations = Object.values(doc.body.paths as Record<string, Record<string, Operation>>).flatMap(
      (p) => Object.values(p).map((o) => o.operationId),
    );
    expect(tools.map((t) => t.name).sort()).toEqual(operations.sort());
    const updateLead = tools.find((t) => t.name === 'updateLead');
    expect(updateLead?.input_schema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['id', 'ifMatch']),
    });
    expect(updateLead?.['x-http']).toMatchObject({ method: 'PATCH', path: '/api/v1/leads/:id' });
    // A keyed write with a body takes opId; one without a body takes the key as a header.
    const createLead = tools.find((t) => t.name === 'createLead');
    expect(createLead?.description).toContain('Pass opId');
    const convertLead = tools.find((t) => t.name === 'convertLead');
    expect(convertLead?.description).toContain('Pass idempotencyKey');
    expect(convertLead?.['x-http']).toMatchObject({ location: { idempotencyKey: 'header:Idempotency-Key' } });
    expect((await platform.anonymous.get('/openapi.json?format=yaml')).body.code).toBe('field_invalid_enum');
  });
});

describe('operations endpoints', () => {
  it('answers /healthz once every service answers, and serves Prometheus metrics', async () => {
    const health = await fetch(`${platform.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
    await platform.anonymous.get('/openapi.json');
    const metrics = await (await fetch(`${platform.url}/metrics`)).text();
    expect(metrics).toContain('http_request_duration_seconds_bucket');
    expect(metrics).toContain('grpc_server_handling_seconds');
  });
});
