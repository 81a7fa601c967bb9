// Customers through HTTP: spec Customer, Customer stage and endpoint rows 15–18.
import { describe, expect, it } from '@jest/globals';
import { confirmed, platformSide } from './support/billing.ts';
import { pointFrame, presign } from './support/capture.ts';
import { type Body, type Client } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const { platform, api, tenantId } = await suiteTenant('Customers Co');

const customer = (reply: { body: Body }) =>
  reply.body.customer as Body & { id: string; etag: string; stage: string };

describe('POST /customers', () => {
  it('creates a customer with stage Lead by default', async () => {
    const reply = await api.post('/customers', {
      name: 'Acme Quarries',
      email: 'ops@acme.test',
      company: 'Acme',
    });
    expect(reply.status).toBe(201);
    expect(customer(reply)).toMatchObject({ name: 'Acme Quarries', stage: 'Lead', company: 'Acme' });
    expect(customer(reply).id).toMatch(/^cus/);
  });

  it('takes an explicit stage and replays a keyed create', async () => {
    const first = await api.post('/customers', { name: 'Keyed Corp', stage: 'Active', opId: 'cust-1' });
    const again = await api.post('/customers', { name: 'Keyed Corp', stage: 'Active', opId: 'cust-1' });
    expect(customer(first).stage).toBe('Active');
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect(customer(again).id).toBe(customer(first).id);
  });

  it('refuses a key reused for a different request', async () => {
    await api.post('/customers', { name: 'Original', opId: 'cust-reuse' });
    const reuse = await api.post('/customers', { name: 'Different', opId: 'cust-reuse' });
    expect(reuse.status).toBe(400);
    expect(reuse.body.code).toBe('field_invalid');
  });

  it.each([
    [{}, 'field_required'],
    [{ name: 'X', stage: 'Won' }, 'field_invalid_enum'],
    [{ name: 'X', amount: 10 }, 'unknown_field'],
    [{ name: 'X', email: 'nope' }, 'field_invalid'],
    [{ name: 'X', company: 'c'.repeat(201) }, 'field_too_long'],
  ])('refuses %j with %s', async (body, code) => {
    const reply = await api.post('/customers', body);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(code);
  });
});

describe('GET /customers', () => {
  it('filters by stage and by free text over name, email and company', async () => {
    await api.post('/customers', { name: 'Findable Ltd', company: 'Northwind Survey', stage: 'Qualified' });
    await api.post('/customers', { name: 'Other', email: 'hello@findable.test', stage: 'Proposal' });
    const byCompany = await api.get('/customers?q=northwind');
    expect((byCompany.body.items as Body[]).map((c) => c.name)).toEqual(['Findable Ltd']);
    const byText = await api.get('/customers?q=findable');
    expect((byText.body.items as Body[]).length).toBe(2);
    const byStage = await api.get('/customers?stage=Proposal&q=findable');
    expect((byStage.body.items as Body[]).map((c) => c.name)).toEqual(['Other']);
    expect((await api.get('/customers?stage=Closed')).body.code).toBe('field_invalid_enum');
  });
});

describe('GET /customers/:id and PATCH /customers/:id', () => {
  it('reads a customer with related records, a money rollup in the tenant currency and the activity trail', async () => {
    const created = await api.post('/customers', { name: 'Detail Co' });
    const reply = await api.get(`/customers/${customer(created).id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.related).toEqual({
      deals: [],
      projects: [],
      captures: [],
      proposals: [],
      invoices: [],
    });
    expect(reply.body.rollup).toMatchObject({ currency: 'USD', openDealsCents: 0 });
    expect(reply.body.activity).toEqual([expect.objectContaining({ action: 'created' })]);
    expect(reply.headers.get('etag')).toBe(`"${customer(created).etag}"`);
    expect((await api.get('/customers/cus_missing')).status).toBe(404);
  });

  it('lists the deals, proposals and invoices as related records and sums them in the rollup', async () => {
    const created = await api.post('/customers', { name: 'Rollup Quarries', email: 'pay@rollup.test' });
    const customerId = customer(created).id;
    const deal = (await api.post('/deals', { customerId })).body.deal as Body & { id: string };
    const lines = [{ description: 'Stockpile volumetrics', quantity: 2, unitPriceCents: 30000 }];
    const proposal = (await api.post('/proposals', { dealId: deal.id, title: 'Offer', lines })).body
      .proposal as Body & { id: string };
    const invoice = (await api.post('/invoices', { customerId, title: 'Survey', lines })).body
      .invoice as Body & {
      id: string;
    };
    expect((await confirmed(api, `/invoices/${invoice.id}/issue`)).final.status).toBe(200);
    const side = platformSide(platform);
    try {
      await side.recordPayment(tenantId, { invoiceId: invoice.id, amountCents: 20000 });
    } finally {
      side.close();
    }

    const reply = await api.get(`/customers/${customerId}`);
    const related = reply.body.related as Record<string, Body[]>;
    expect(related.deals?.map((d) => [d.id, d.status])).toEqual([[deal.id, 'lead']]);
    expect(related.proposals?.map((p) => [p.id, p.status])).toEqual([[proposal.id, 'draft']]);
    expect(related.invoices?.map((i) => [i.id, i.status])).toEqual([[invoice.id, 'issued']]);
    expect(reply.body.rollup).toEqual({
      currency: 'USD',
      openDealsCents: 0,
      wonCents: 0,
      invoicedCents: 60000,
      paidCents: 20000,
      outstandingCents: 40000,
    });
  });

  it('lists the projects and captures the caller can read, from the projects and capture services', async () => {
    const created = await api.post('/customers', { name: 'Project Owner Ltd' });
    const customerId = customer(created).id;
    const newJob = async (name: string) => {
      const reply = await api.post('/projects', { customerId, customerName: 'Project Owner Ltd', name });
      expect(reply.status).toBe(201);
      return (reply.body.project as Body & { id: string }).id;
    };
    const [first, second] = [await newJob('North pit'), await newJob('South pit')];
    const projectsOf = async (client: Client) =>
      ((await client.get(`/customers/${customerId}`)).body.related as Record<string, Body[]>).projects ?? [];

    expect((await projectsOf(api)).map((p) => p.id).sort()).toEqual([first, second].sort());
    expect(await projectsOf(api)).toContainEqual(
      expect.objectContaining({ id: first, kind: 'project', status: 'planned', name: 'North pit' }),
    );
    const restricted = await platform.token(tenantId, { role: 'Manager', projectIds: [second] });
    expect((await projectsOf(restricted.api)).map((p) => p.id)).toEqual([second]);
    const noJobs = await platform.token(tenantId, { role: 'Manager', permissions: { customer: ['read'] } });
    expect(await projectsOf(noJobs.api)).toEqual([]);

    // Captures come from the capture service, for the projects the caller can see.
    const { session } = await presign(api, first, { frames: [pointFrame(1000)] });
    const capturesOf = async (client: Client) =>
      ((await client.get(`/customers/${customerId}`)).body.related as Record<string, Body[]>).captures ?? [];
    expect(await capturesOf(api)).toEqual([
      expect.objectContaining({ id: session.id, kind: 'capture', status: 'uploading', name: 'North pit' }),
    ]);
    expect(await capturesOf(restricted.api)).toEqual([]);
    const noCaptures = await platform.token(tenantId, {
      role: 'Manager',
      permissions: { customer: ['read'], job: ['read'] },
    });
    expect(await capturesOf(noCaptures.api)).toEqual([]);
  });

  it('writes every change to the activity trail, with who and which request', async () => {
    const created = await api.post('/customers', { name: 'Trail Co', stage: 'Lead' });
    const id = customer(created).id;
    const patched = await api.patch(
      `/customers/${id}`,
      { stage: 'Qualified', phone: '555' },
      { 'if-match': customer(created).etag, 'x-request-id': 'req-trail-1' },
    );
    expect(patched.status).toBe(200);
    expect(customer(patched).stage).toBe('Qualified');
    const detail = await api.get(`/customers/${id}`);
    const [latest] = detail.body.activity as {
      action: string;
      changes: Body[];
      requestId: string;
      actor: string;
    }[];
    expect(latest?.requestId).toBe('req-trail-1');
    expect(latest?.actor).toMatch(/tok_/);
    expect(latest?.changes).toEqual(
      expect.arrayContaining([
        { field: 'stage', from: 'Lead', to: 'Qualified' },
        expect.objectContaining({ field: 'phone', to: '555' }),
      ]),
    );
  });

  it('guards stage moves and If-Match', async () => {
    const created = await api.post('/customers', { name: 'Stage Co', stage: 'Lost' });
    const id = customer(created).id;
    expect((await api.patch(`/customers/${id}`, { name: 'x' })).status).toBe(428);
    const illegal = await api.patch(`/customers/${id}`, { stage: 'Active' }, { 'if-match': '*' });
    expect(illegal.status).toBe(409);
    expect(illegal.body.legalTransitions).toEqual(expect.any(Array));
    const stale = await api.patch(`/customers/${id}`, { name: 'y' }, { 'if-match': '"v999"' });
    expect(stale.status).toBe(409);
    expect((stale.body.current as Body).name).toBe('Stage Co');
    expect((await api.patch(`/customers/${id}`, {}, { 'if-match': '*' })).body.code).toBe('invalid_body');
  });
});
