// Leads through HTTP: every rule of the spec's Lead, Lead status and endpoint rows 9–12.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  newMember,
  startTestPlatform,
  type Body,
  type Client,
  type TestPlatform,
} from './support/harness.ts';

let platform: TestPlatform;
let api: Client;
/** Members of the tenant (an owner must be one: references are checked). */
const members: Record<string, string> = {};

beforeAll(async () => {
  platform = await startTestPlatform();
  let tenantId: string;
  ({ api, tenantId } = await platform.tenant('Leads Co'));
  for (const name of ['owner', 'f1', 'f2']) {
    members[name] = await newMember(platform, tenantId, `${name}@leads.test`);
  }
});
afterAll(() => platform.stop());

const lead = (reply: { body: Body }) =>
  reply.body.lead as Body & { id: string; etag: string; status: string; score: number };

describe('POST /leads', () => {
  it('creates a lead in status New with a completeness score, 201', async () => {
    const reply = await api.post('/leads', {
      name: 'Ada Pilot',
      email: 'ada@example.com',
      message: 'Need a roof survey',
    });
    expect(reply.status).toBe(201);
    expect(reply.body.ok).toBe(true);
    expect(lead(reply)).toMatchObject({ name: 'Ada Pilot', email: 'ada@example.com', status: 'New' });
    expect(lead(reply).id).toMatch(/^lead_/);
    expect(lead(reply).score).toBeGreaterThan(0);
    expect(lead(reply).score).toBeLessThanOrEqual(85);
  });

  it('scores a lead with every field at 85 and a name-only lead lower', async () => {
    const full = await api.post('/leads', {
      name: 'Full Data',
      email: 'full@example.com',
      phone: '+1 555 0100',
      message: 'Volumetrics of two stockpiles',
      source: 'website',
      ownerId: members.owner,
    });
    const bare = await api.post('/leads', { name: 'Bare Name' });
    expect(lead(full).score).toBe(85);
    expect(lead(bare).score).toBeLessThan(lead(full).score);
  });

  it('returns the open lead with the same email instead of a new one (deduped)', async () => {
    const first = await api.post('/leads', { name: 'Bo', email: 'Bo@Example.com', message: 'first' });
    const again = await api.post('/leads', { name: 'Bo B.', email: 'bo@example.com', message: 'second' });
    expect(again.status).toBe(200);
    expect(again.body.deduped).toBe(true);
    expect(lead(again).id).toBe(lead(first).id);
    const detail = await api.get(`/leads/${lead(first).id}`);
    const bodies = (detail.body.inboundMessages as { body: string }[]).map((m) => m.body);
    expect(bodies).toEqual(expect.arrayContaining(['first', 'second']));
  });

  it('flags an existing customer with the same email and never merges', async () => {
    const customer = await api.post('/customers', { name: 'Cy Customer', email: 'cy@example.com' });
    const reply = await api.post('/leads', { name: 'Cy', email: 'cy@example.com' });
    expect(reply.status).toBe(201);
    expect(lead(reply).customerMatch).toEqual({
      customerId: (customer.body.customer as Body).id,
      matchedOn: 'email',
    });
    const after = await api.get(`/customers/${(customer.body.customer as Body).id}`);
    expect((after.body.customer as Body).name).toBe('Cy Customer');
  });

  it('replays a keyed write: same record, 200, replayed true, no second lead', async () => {
    const body = { name: 'Keyed Kim', opId: 'op-kim-1' };
    const first = await api.post('/leads', body);
    const replay = await api.post('/leads', body);
    expect(first.status).toBe(201);
    expect(replay.status).toBe(200);
    expect(replay.body.replayed).toBe(true);
    expect(lead(replay).id).toBe(lead(first).id);
    const viaHeader = await api.post('/leads', { name: 'Keyed Kim' }, { 'idempotency-key': 'op-kim-1' });
    expect(lead(viaHeader).id).toBe(lead(first).id);
    const list = await api.get('/leads?q=Keyed%20Kim');
    expect((list.body.items as Body[]).length).toBe(1);
  });

  it('creates a second record for a retry without a key', async () => {
    await api.post('/leads', { name: 'Unkeyed Uma' });
    await api.post('/leads', { name: 'Unkeyed Uma' });
    const list = await api.get('/leads?q=Unkeyed');
    expect((list.body.items as Body[]).length).toBe(2);
  });

  it.each([
    [{}, 'field_required', 'name'],
    [{ name: '' }, 'field_required', 'name'],
    [{ name: 42 }, 'field_invalid', 'name'],
    [{ name: 'X', email: 'not-an-email' }, 'field_invalid', 'email'],
    [{ name: 'x'.repeat(201) }, 'field_too_long', 'name'],
    [{ name: 'X', status: 'Qualified' }, 'unknown_field', 'status'],
    [{ name: 'X', opId: 'k'.repeat(65) }, 'field_too_long', 'opId'],
  ])('refuses %j with %s', async (body, code, field) => {
    const reply = await api.post('/leads', body);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ ok: false, code, retryable: false, field });
    expect(typeof reply.body.error).toBe('string');
  });

  it('refuses malformed JSON and a non-object body', async () => {
    const broken = await api.request('POST', '/leads', { body: '{"name": ', headers: {} });
    expect(broken.body.code).toBe('invalid_json');
    const array = await api.post('/leads', [{ name: 'x' }]);
    expect(array.body.code).toBe('invalid_body');
  });
});

describe('GET /leads and /leads/:id', () => {
  it('filters by status, owner and free text over name, email, phone and message', async () => {
    await api.post('/leads', {
      name: 'Filter One',
      phone: '+44 1234',
      ownerId: members.f1,
      message: 'quarry volumes',
    });
    await api.post('/leads', { name: 'Filter Two', email: 'two@filter.test', ownerId: members.f2 });
    const byPhone = await api.get('/leads?q=%2B44%201234');
    expect((byPhone.body.items as Body[]).map((l) => l.name)).toEqual(['Filter One']);
    const byMessage = await api.get('/leads?q=QUARRY');
    expect((byMessage.body.items as Body[]).map((l) => l.name)).toEqual(['Filter One']);
    const byEmail = await api.get('/leads?q=two@filter');
    expect((byEmail.body.items as Body[]).map((l) => l.name)).toEqual(['Filter Two']);
    const byOwner = await api.get(`/leads?ownerId=${members.f2 ?? ''}`);
    expect((byOwner.body.items as Body[]).map((l) => l.name)).toEqual(['Filter Two']);
    const byStatus = await api.get('/leads?status=New&q=Filter');
    expect((byStatus.body.items as Body[]).length).toBe(2);
  });

  it('pages newest first with a cursor and clamps limit, saying so', async () => {
    for (let i = 0; i < 5; i += 1) await api.post('/leads', { name: `Pager ${i}` });
    const first = await api.get('/leads?q=Pager&limit=2');
    expect((first.body.items as Body[]).map((l) => l.name)).toEqual(['Pager 4', 'Pager 3']);
    const second = await api.get(`/leads?q=Pager&limit=2&cursor=${String(first.body.nextCursor)}`);
    expect((second.body.items as Body[]).map((l) => l.name)).toEqual(['Pager 2', 'Pager 1']);
    const clamped = await api.get('/leads?limit=500');
    expect(clamped.status).toBe(200);
    expect(clamped.body).toMatchObject({ limit: 100, limitClamped: true, requestedLimit: 500 });
    const low = await api.get('/leads?limit=0');
    expect(low.body).toMatchObject({ limit: 1, limitClamped: true });
  });

  it('refuses bad filters with field_invalid_enum, field_invalid and field_too_long', async () => {
    expect((await api.get('/leads?status=Won')).body.code).toBe('field_invalid_enum');
    expect((await api.get('/leads?limit=ten')).body.code).toBe('field_invalid');
    expect((await api.get(`/leads?q=${'q'.repeat(201)}`)).body.code).toBe('field_too_long');
    expect((await api.get('/leads?colour=red')).body.code).toBe('unknown_field');
  });

  it('reads one lead with inbound messages, next statuses and an ETag; 404 for an unknown id', async () => {
    const created = await api.post('/leads', { name: 'Reader', message: 'hello' });
    const reply = await api.get(`/leads/${lead(created).id}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('etag')).toBe(`"${lead(created).etag}"`);
    expect(reply.body.inboundMessages).toEqual([expect.objectContaining({ body: 'hello' })]);
    expect(reply.body.nextStatuses).toEqual(expect.arrayContaining(['Contacted']));
    expect(reply.body.nextStatuses).not.toContain('Converted');
    expect((await api.get('/leads/lead_missing')).status).toBe(404);
  });
});

describe('PATCH /leads/:id', () => {
  it('needs If-Match (428), refuses a stale one with the current record (409), accepts * and a fresh etag', async () => {
    const created = await api.post('/leads', { name: 'Patchy' });
    const id = lead(created).id;
    const missing = await api.patch(`/leads/${id}`, { phone: '1' });
    expect(missing.status).toBe(428);
    const fresh = await api.patch(`/leads/${id}`, { phone: '2' }, { 'if-match': `"${lead(created).etag}"` });
    expect(fresh.status).toBe(200);
    expect(lead(fresh).phone).toBe('2');
    const stale = await api.patch(`/leads/${id}`, { phone: '3' }, { 'if-match': lead(created).etag });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'conflict', retryable: true });
    expect((stale.body.current as Body).phone).toBe('2');
    const star = await api.patch(`/leads/${id}`, { phone: '4' }, { 'if-match': '*' });
    expect(lead(star).phone).toBe('4');
  });

  it('guards status moves with the machine and refuses Converted', async () => {
    const created = await api.post('/leads', { name: 'Mover' });
    const id = lead(created).id;
    const moved = await api.patch(`/leads/${id}`, { status: 'Contacted' }, { 'if-match': '*' });
    expect(lead(moved).status).toBe('Contacted');
    const converted = await api.patch(`/leads/${id}`, { status: 'Converted' }, { 'if-match': '*' });
    expect(converted.status).toBe(409);
    expect(converted.body.code).toBe('conflict');
    const lost = await api.patch(`/leads/${id}`, { status: 'Lost' }, { 'if-match': '*' });
    expect(lead(lost).status).toBe('Lost');
    const illegal = await api.patch(`/leads/${id}`, { status: 'Qualified' }, { 'if-match': '*' });
    expect(illegal.status).toBe(409);
    expect(illegal.body.legalTransitions).toEqual(expect.any(Array));
    expect(illegal.body.legalTransitions).not.toContain('Qualified');
    const after = await api.get(`/leads/${id}`);
    expect((after.body.lead as Body).status).toBe('Lost');
  });

  it('refuses an empty body, unknown fields and bad values without changing anything', async () => {
    const created = await api.post('/leads', { name: 'Stable' });
    const id = lead(created).id;
    expect((await api.patch(`/leads/${id}`, {}, { 'if-match': '*' })).body.code).toBe('invalid_body');
    expect((await api.patch(`/leads/${id}`, { score: 85 }, { 'if-match': '*' })).body.code).toBe(
      'unknown_field',
    );
    expect((await api.patch(`/leads/${id}`, { status: 'Won' }, { 'if-match': '*' })).body.code).toBe(
      'field_invalid_enum',
    );
    expect((await api.patch(`/leads/lead_nope`, { name: 'x' }, { 'if-match': '*' })).status).toBe(404);
    const after = await api.get(`/leads/${id}`);
    expect((after.body.lead as Body).etag).toBe(lead(created).etag);
  });
});
