// The gateway pipeline through HTTP: rate buckets, dry run, idempotency under concurrency,
// agent headers, the contract documents (spec: Conventions, Limits, Introspection).
import { describe, expect, it } from '@jest/globals';
import { type ApiRequestPath, type Body, type Client } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const { platform, api } = await suiteTenant('Pipeline Co', {
  FIELDOPS_RATE_READS_PER_MIN: '5',
  FIELDOPS_RATE_WRITES_PER_MIN: '3',
});

/** Each test that writes or reads a lot gets its own token, so buckets do not leak between tests. */
async function freshApi(): Promise<Client> {
  const tenantId = ((await platform.admin.get('/tenants')).body.items as Body[])[0]?.id as string;
  return (await platform.token(tenantId, { role: 'Manager' })).api;
}

describe('rate limits: a read and a write bucket per token', () => {
  it('names the bucket on every response and answers 429 with Retry-After once a bucket is empty', async () => {
    const client = await freshApi();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const reply = await client.get('/leads');
      expect(reply.headers.get('x-ratelimit-bucket')).toBe('reads');
      statuses.push(reply.status);
      if (reply.status === 429) {
        expect(reply.body).toMatchObject({ code: 'rate_limited', retryable: true, bucket: 'reads' });
        expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
  });

  it('keeps writes in their own bucket', async () => {
    const client = await freshApi();
    for (let i = 0; i < 3; i += 1) expect((await client.post('/leads', { name: `W${i}` })).status).toBe(201);
    const refused = await client.post('/leads', { name: 'W3' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-bucket')).toBe('writes');
    expect((await client.get('/leads')).status).toBe(200);
  });
});

describe('dry run', () => {
  it('rehearses a create: willDo and effects, applies nothing', async () => {
    const client = await freshApi();
    const reply = await client.post('/leads', { name: 'Rehearsed Rita' }, { 'x-service-dry-run': '1' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ ok: true, dryRun: true, applied: false });
    expect(typeof reply.body.willDo).toBe('string');
    expect(reply.body.effects).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'create', kind: 'lead' })]),
    );
    const list = await client.get('/leads?q=Rehearsed');
    expect(list.body.items).toEqual([]);
  });

  it('rehearses an amendment without changing the record, and refuses other header values', async () => {
    const client = await freshApi();
    const created = await client.post('/leads', { name: 'Dry Patch' });
    const lead = created.body.lead as { id: string; etag: string };
    const dry = await client.patch(
      `/leads/${lead.id}`,
      { status: 'Contacted' },
      { 'if-match': '*', 'x-service-dry-run': '1' },
    );
    expect(dry.body).toMatchObject({ dryRun: true, applied: false });
    const after = await client.get(`/leads/${lead.id}`);
    expect((after.body.lead as Body).status).toBe('New');
    const bad = await client.post('/leads', { name: 'x' }, { 'x-service-dry-run': 'yes' });
    expect(bad.body.code).toBe('field_invalid');
  });
});

describe('idempotency', () => {
  it('refuses an Idempotency-Key over 64 characters and two different keys', async () => {
    const client = await freshApi();
    const long = await client.post('/leads', { name: 'x' }, { 'idempotency-key': 'k'.repeat(65) });
    expect(long.body).toMatchObject({ code: 'field_too_long', field: 'idempotency-key' });
    const both = await client.post('/leads', { name: 'x', opId: 'a' }, { 'idempotency-key': 'b' });
    expect(both.body.code).toBe('field_invalid');
  });
});

describe('agent headers', () => {
  it('refuses X-Agent-Run-Id and X-Agent-Task over 500 characters', async () => {
    const client = await freshApi();
    const run = await client.post('/leads', { name: 'x' }, { 'x-agent-run-id': 'r'.repeat(501) });
    expect(run.body).toMatchObject({ code: 'field_too_long', field: 'x-agent-run-id' });
    const task = await client.post('/leads', { name: 'x' }, { 'x-agent-task': 't'.repeat(501) });
    expect(task.body).toMatchObject({ code: 'field_too_long', field: 'x-agent-task' });
  });
});

describe('unknown paths', () => {
  it('answers 404 not_found in the spec body', async () => {
    const reply = await api.get('/nowhere' as ApiRequestPath); // deliberately outside the contract
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ ok: false, code: 'not_found' });
    expect(reply.headers.get('x-ratelimit-bucket')).toBe('reads');
  });
});
