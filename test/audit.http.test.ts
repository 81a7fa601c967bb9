// Exactly-once writes and the tamper-evident audit trail through HTTP (spec: Authentication 6–7).
import { describe, expect, it } from '@jest/globals';
import { eventually, type Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const { platform, api, tenantId } = await suiteTenant('Audit Co');

type Entry = Body & {
  resourceId: string;
  action: string;
  tokenId: string;
  requestId: string;
  agent: Body;
  seq: number;
};

async function trail(query = ''): Promise<Entry[]> {
  const reply = await api.get(`/audit?limit=100${query}`);
  return reply.body.items as Entry[];
}

describe('idempotency under concurrency', () => {
  it('creates exactly one record for ten concurrent duplicates of a keyed write', async () => {
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.post('/leads', { name: 'Once Only' }, { 'idempotency-key': 'concurrent-1' }),
      ),
    );
    expect(new Set(replies.map((r) => (r.body.lead as Body).id)).size).toBe(1);
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    expect(replies.filter((r) => r.body.replayed === true)).toHaveLength(9);
    const id = (replies[0]?.body.lead as Body).id as string;
    const entries = await eventually(async () => {
      const found = await trail(`&resourceId=${id}`);
      return found.length ? found : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await trail(`&resourceId=${id}`)).toHaveLength(entries.length);
    expect(entries).toHaveLength(1);
  });
});

describe('opId in the body of every write with a body', () => {
  const newLead = async (name: string) => (await api.post('/leads', { name })).body.lead as Body;

  it('makes an amendment exactly-once, like Idempotency-Key, and audits it once', async () => {
    const lead = await newLead('Keyed Kay');
    const patch = (body: Body, headers: Record<string, string> = {}) =>
      api.patch(`/leads/${lead.id as string}`, body, { 'if-match': '*', ...headers });
    const first = await patch({ message: 'call back', opId: 'patch-once' });
    expect([first.status, first.body.replayed]).toEqual([200, undefined]);
    const again = await patch({ message: 'call back', opId: 'patch-once' });
    expect([again.status, again.body.replayed, (again.body.lead as Body).etag]).toEqual([
      200,
      true,
      (first.body.lead as Body).etag,
    ]);
    const sameByHeader = await patch({ message: 'call back' }, { 'idempotency-key': 'patch-once' });
    expect(sameByHeader.body.replayed).toBe(true);
    const entries = await eventually(async () => {
      const found = await trail(`&resourceId=${lead.id as string}`);
      return found.length >= 2 ? found : undefined;
    });
    expect(entries.filter((entry) => entry.action === 'lead.updated')).toHaveLength(1);
  });

  it('refuses the same key with a different body, and a body key that differs from the header', async () => {
    const lead = await newLead('Keyed Kim');
    const path = `/leads/${lead.id as string}` as const;
    await api.patch(path, { message: 'one', opId: 'patch-two' }, { 'if-match': '*' });
    const reused = await api.patch(path, { message: 'two', opId: 'patch-two' }, { 'if-match': '*' });
    expect([reused.status, reused.body.code, reused.body.field]).toEqual([400, 'field_invalid', 'opId']);
    const both = await api.patch(
      path,
      { message: 'three', opId: 'key-a' },
      { 'if-match': '*', 'idempotency-key': 'key-b' },
    );
    expect([both.status, both.body.code]).toEqual([400, 'field_invalid']);
    expect(both.body.error).toMatch(/opId and the Idempotency-Key header name two different keys/);
    expect(((await api.get(path)).body.lead as Body).message).toBe('one');
  });

  it('refuses an opId longer than an Idempotency-Key may be', async () => {
    const lead = await newLead('Keyed Kit');
    const long = await api.patch(
      `/leads/${lead.id as string}`,
      { message: 'x', opId: 'k'.repeat(65) },
      { 'if-match': '*' },
    );
    expect([long.status, long.body.code]).toEqual([400, 'field_too_long']);
  });
});

describe('GET /audit', () => {
  it('records every write once with its token, request id and agent headers', async () => {
    const created = await api.post(
      '/leads',
      { name: 'Audited Al' },
      {
        'x-request-id': 'req-audit-1',
        'x-agent-run-id': 'run-42',
        'x-agent-task': 'triage the inbox',
        'x-agent-model': 'model-x',
        'x-agent-confirmed-by': 'ops@audit.test',
      },
    );
    const id = (created.body.lead as Body).id as string;
    const [entry] = await eventually(async () => {
      const found = await trail(`&resourceId=${id}`);
      return found.length ? found : undefined;
    });
    expect(entry).toMatchObject({
      action: 'lead.created',
      operation: 'createLead',
      resourceKind: 'lead',
      requestId: 'req-audit-1',
      agent: { runId: 'run-42', task: 'triage the inbox', model: 'model-x', confirmedBy: 'ops@audit.test' },
    });
    expect(entry?.tokenId).toMatch(/^tok_/);
    const byRun = await trail('&runId=run-42');
    expect(byRun.map((e) => e.resourceId)).toEqual([id]);
  });

  it('records nothing for a dry run, a refused write or a replay', async () => {
    const before = (await eventually(async () => ((await trail()).length ? await trail() : undefined)))
      .length;
    await api.post('/leads', { name: 'Dry' }, { 'x-service-dry-run': '1' });
    await api.post('/leads', { name: '' });
    const keyed = await api.post('/leads', { name: 'Replay Ray', opId: 'audit-replay' });
    await api.post('/leads', { name: 'Replay Ray', opId: 'audit-replay' });
    const id = (keyed.body.lead as Body).id as string;
    await eventually(async () => ((await trail(`&resourceId=${id}`)).length ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await trail()).length).toBe(before + 1);
  });

  it('records identity writes too (a token issued by the operator)', async () => {
    const issued = await platform.token(tenantId, { role: 'Viewer' });
    const entries = await eventually(async () => {
      const found = await trail(`&resourceId=${issued.id}`);
      return found.length ? found : undefined;
    });
    expect(entries[0]).toMatchObject({ action: 'token.issued', principalKind: 'operator' });
  });
});

describe('GET /audit/verify', () => {
  it('reports a valid chain with its head, and a proof for one entry', async () => {
    await api.post('/customers', { name: 'Chain Co' });
    const entries = await eventually(async () => {
      const found = await trail();
      return found.length >= 2 ? found : undefined;
    });
    const reply = await api.get('/audit/verify');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ valid: true });
    expect(reply.body.headSeq).toBeGreaterThanOrEqual(entries.length);
    const oldest = entries[entries.length - 1] as Entry;
    const proof = await api.get(`/audit/verify?entryId=${oldest.id as string}`);
    expect((proof.body.proof as Entry[])[0]?.id).toBe(oldest.id);
    expect((await api.get('/audit/verify?entryId=aud_missing')).status).toBe(404);
  });
});
