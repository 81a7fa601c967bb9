// The machine-readable contract (spec: Introspection and contract, Versioning).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, startTestPlatform, type Body, type TestPlatform } from './support/harness.ts';

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
    expect(reply.body.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining(['/api/v1/leads', '/api/v1/leads/{id}', '/api/v1/customers', '/api/v1/audit']),
    );
    expect(reply.body).not.toHaveProperty('ok');
    const create = paths['/api/v1/leads']?.post as Operation;
    expect(create.operationId).toBe('createLead');
    expect(create['x-scope']).toEqual({ action: 'create', kind: 'lead' });
    expect(create['x-dry-run']).toBe(true);
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '403', '429']),
    );
    const body = ((create.requestBody as Body).content as Record<string, { schema: Body }>)[
      'application/json'
    ]?.schema;
    expect(body).toMatchObject({ additionalProperties: false, required: ['name'] });
    const patch = paths['/api/v1/leads/{id}']?.patch as Operation;
    expect(patch.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'If-Match', required: true })]),
    );
    expect(Object.keys(patch.responses)).toContain('428');
    expect(patch['x-state-machine']).toMatchObject({
      field: 'status',
      moves: { Lost: ['New'], Converted: [] },
    });
  });

  it('is the committed document (gateway/openapi/openapi.json, linted and typed by npm run gen)', async () => {
    const served = (await platform.anonymous.get('/openapi.json')).body;
    const { 'x-digest': _digest, ...info } = served.info as Body;
    const committed = JSON.parse(
      readFileSync(resolve(import.meta.dirname, '..', 'gateway', 'openapi', 'openapi.json'), 'utf8'),
    ) as Body;
    expect({ ...served, info }).toEqual(committed);
  });

  it('is stable: the same digest on every fetch', async () => {
    const a = await platform.anonymous.get('/openapi.json');
    const b = await platform.anonymous.get('/openapi.json');
    const digest = (reply: { body: Body }) => (reply.body.info as Body)['x-digest'];
    expect(digest(a)).toBe(digest(b));
    expect(digest(a)).toMatch(/^[0-9a-f]{64}$/);
    expect((await platform.anonymous.get('/openapi.json?format=tools')).body.digest).toBe(digest(a));
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
    // Readiness is probed, as an orchestrator does: each gRPC channel gets 500 ms per probe to
    // connect, which a loaded machine (a COLMAP run beside this suite) can miss once or twice.
    const health = await eventually(async () => {
      const probe = await fetch(`${platform.url}/healthz`);
      if (probe.status === 200) return probe;
      await probe.body?.cancel();
      return undefined;
    }, 30_000);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
    await platform.anonymous.get('/openapi.json');
    // On the public port /metrics takes the operator secret (issue 23).
    expect((await fetch(`${platform.url}/metrics`)).status).toBe(401);
    const metrics = await (
      await fetch(`${platform.url}/metrics`, {
        headers: { authorization: `Bearer ${platform.adminSecret}` },
      })
    ).text();
    expect(metrics).toContain('http_request_duration_seconds_bucket');
    expect(metrics).toContain('grpc_server_handling_seconds');
  });
});
