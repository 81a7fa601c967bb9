// POST /leads/:id/qualify through HTTP (spec: endpoint row 13, Limits 2): a typed persona read
// from the facts the lead stated, with those facts; nothing stored on the lead; one compute run
// (AI credits) per call; counted in the writes bucket.
import { describe, expect, it } from '@jest/globals';
import { eventually, type Body, type Client } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const COMPUTE_PER_HOUR = 4;

const {
  platform,
  tenantId,
  api: manager,
} = await suiteTenant('Qualify Co', { FIELDOPS_BUDGET_COMPUTE: String(COMPUTE_PER_HOUR) });

/** Budgets are per token: each test qualifies with a token of its own. */
const freshToken = async (): Promise<Client> => (await platform.token(tenantId, { role: 'Manager' })).api;

const newLead = async (body: Body) => {
  const reply = await manager.post('/leads', body);
  expect(reply.status).toBe(201);
  return reply.body.lead as Body & { id: string; etag: string };
};

type Qualification = Body & { persona: string | null; facts: Body[]; basis: string; qualifier: string };
const reading = (reply: { body: Body }) => reply.body.qualification as Qualification;

describe('POST /leads/:id/qualify', () => {
  it.each([
    ['buyer', "We're under contract on a farmhouse and want the roof checked before we buy."],
    ['seller', 'We are selling our house next month and need photos of the roof for the listing.'],
    ['investor', 'I invest in rentals and need volumetrics for my portfolio.'],
  ])('reads %s from what the lead wrote, quoting the facts it relied on', async (persona, message) => {
    const api = await freshToken();
    const lead = await newLead({ name: `Persona ${persona}`, message });
    const reply = await api.post(`/leads/${lead.id}/qualify`);
    expect(reply.status).toBe(200);
    expect(reading(reply)).toMatchObject({ leadId: lead.id, persona, qualifier: 'rules/v1' });
    expect(reading(reply).facts.length).toBeGreaterThan(0);
    for (const fact of reading(reply).facts) {
      expect(fact).toMatchObject({ field: 'inbound_message', ref: expect.stringMatching(/.+/) });
      expect(message).toContain(fact.quote as string);
    }
    expect(reading(reply).facts.some((fact) => fact.indicates === persona)).toBe(true);
  });

  it('is deterministic: the same lead reads the same persona from the same facts', async () => {
    const api = await freshToken();
    const lead = await newLead({ name: 'Same Sally', message: 'Looking to sell the lot on Elm St.' });
    const first = reading(await api.post(`/leads/${lead.id}/qualify`));
    const second = reading(await api.post(`/leads/${lead.id}/qualify`));
    const { readAt: _a, ...firstRest } = first;
    const { readAt: _b, ...secondRest } = second;
    expect(secondRest).toEqual(firstRest);
  });

  it('gives persona null, with the reason, when nothing the lead stated points to one', async () => {
    const api = await freshToken();
    const lead = await newLead({ name: 'Vague Vic', message: 'Call me about a drone survey.' });
    const reply = await api.post(`/leads/${lead.id}/qualify`);
    expect(reply.status).toBe(200);
    expect(reading(reply)).toMatchObject({ persona: null, facts: [] });
    expect(reading(reply).basis).toMatch(/no persona/);
  });

  it('reads later inbound messages too (a repeated enquiry logged on the lead)', async () => {
    const api = await freshToken();
    const lead = await newLead({
      name: 'Two Step',
      email: 'two@example.com',
      message: 'Roof survey please.',
    });
    await manager.post('/leads', {
      name: 'Two Step',
      email: 'two@example.com',
      message: 'It is for a flip project.',
    });
    const reply = await api.post(`/leads/${lead.id}/qualify`);
    expect(reading(reply).persona).toBe('investor');
    expect(reading(reply).facts).toEqual([
      expect.objectContaining({ quote: 'It is for a flip project.', indicates: 'investor' }),
    ]);
  });

  it('stores nothing on the lead: same etag, same fields, same status after qualifying', async () => {
    const api = await freshToken();
    const lead = await newLead({ name: 'Still Stan', message: 'We want to buy a barn.' });
    const before = await manager.get(`/leads/${lead.id}`);
    expect((await api.post(`/leads/${lead.id}/qualify`)).status).toBe(200);
    const after = await manager.get(`/leads/${lead.id}`);
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
  });

  it('spends one compute run per call and answers 429 naming compute once the budget is spent', async () => {
    const api = await freshToken();
    const lead = await newLead({ name: 'Budget Bea', message: 'Buying a house.' });
    for (let i = 0; i < COMPUTE_PER_HOUR; i++) {
      expect((await api.post(`/leads/${lead.id}/qualify`)).status).toBe(200);
    }
    const spent = await api.post(`/leads/${lead.id}/qualify`);
    expect(spent.status).toBe(429);
    expect(spent.body).toMatchObject({ ok: false, code: 'rate_limited', budget: 'compute', retryable: true });
    expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another token has its own budget.
    expect((await (await freshToken()).post(`/leads/${lead.id}/qualify`)).status).toBe(200);
  });

  it('counts as a write for rate limiting', async () => {
    const api = await freshToken();
    const lead = await newLead({ name: 'Bucket Ben' });
    const reply = await api.post(`/leads/${lead.id}/qualify`);
    expect(reply.headers.get('x-ratelimit-bucket')).toBe('writes');
  });

  it('answers 404 for an unknown lead, and refuses a body and a dry run', async () => {
    const api = await freshToken();
    const missing = await api.post('/leads/lead_missing/qualify');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    const lead = await newLead({ name: 'Strict Stu' });
    const withBody = await api.post(`/leads/${lead.id}/qualify`, { persona: 'buyer' });
    expect(withBody.body.code).toBe('invalid_body');
    const dry = await api.post(`/leads/${lead.id}/qualify`, undefined, { 'x-service-dry-run': '1' });
    expect(dry.status).toBe(400);
    expect(dry.body).toMatchObject({ code: 'field_invalid', field: 'x-service-dry-run' });
  });

  it('needs update on leads: a read-only token is refused', async () => {
    const viewer = await platform.token(tenantId, { role: 'Viewer' });
    const lead = await newLead({ name: 'Viewer Val' });
    const reply = await viewer.api.post(`/leads/${lead.id}/qualify`);
    expect(reply.status).toBe(403);
    expect(reply.body.required).toEqual({ action: 'update', kind: 'lead' });
  });

  it('records the reading as lead.qualified on the audit trail', async () => {
    const api = await freshToken();
    const lead = await newLead({ name: 'Audited Al', message: 'Selling soon.' });
    await api.post(`/leads/${lead.id}/qualify`);
    const actions = await eventually(async () => {
      const items = (await manager.get(`/audit?resourceId=${lead.id}`)).body.items as Body[] | undefined;
      const found = (items ?? []).map((entry) => entry.action);
      return found.includes('lead.qualified') ? found : undefined;
    });
    expect(actions).toContain('lead.created');
  });
});
