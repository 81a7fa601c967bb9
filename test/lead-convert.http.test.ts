// POST /leads/:id/convert through HTTP (spec: Lead status, endpoint row 14): a customer and an
// opening deal, the inbound messages on the customer's timeline, exactly once, 409 when the lead
// cannot be converted, and the lead's status after conversion as the declared machine says.
import { describe, expect, it } from '@jest/globals';
import { DEAL_STAGE_MACHINE, LEAD_STATUS_MACHINE, LEAD_STATUSES } from '@fieldops/contracts';
import { eventually, type Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const { platform, api, tenantId } = await suiteTenant('Convert Co');

const newLead = async (body: Body) => {
  const reply = await api.post('/leads', body);
  expect(reply.status).toBe(201);
  return reply.body.lead as Body & { id: string; etag: string };
};

const moveLead = (id: string, status: string) => api.patch(`/leads/${id}`, { status }, { 'if-match': '*' });

describe('POST /leads/:id/convert', () => {
  it("creates a customer and an opening deal, logs the inbound messages on the customer's timeline", async () => {
    const lead = await newLead({
      name: 'Rita Roofer',
      email: 'rita@example.com',
      phone: '+1 555 0101',
      source: 'website',
      message: 'Please survey our warehouse roof.',
    });
    await api.post('/leads', { name: 'Rita', email: 'rita@example.com', message: 'Also the car park.' });

    const reply = await api.post(`/leads/${lead.id}/convert`);
    expect(reply.status).toBe(201);
    const customer = reply.body.customer as Body & { id: string };
    const deal = reply.body.deal as Body & { id: string };
    expect(customer).toMatchObject({
      name: 'Rita Roofer',
      email: 'rita@example.com',
      phone: '+1 555 0101',
      source: 'website',
      stage: 'Lead',
    });
    expect(deal).toMatchObject({
      customerId: customer.id,
      leadId: lead.id,
      stage: DEAL_STAGE_MACHINE.initial,
      value: { cents: 0, currency: expect.any(String) },
    });
    expect(reply.body.lead).toMatchObject({
      id: lead.id,
      status: LEAD_STATUS_MACHINE.afterConversion,
      convertedTo: { customerId: customer.id, dealId: deal.id },
    });

    const read = await api.get(`/customers/${customer.id}`);
    const logged = (read.body.activity as Body[]).filter((entry) => entry.action === 'message_logged');
    expect(logged.map((entry) => entry.note)).toEqual([
      'Also the car park.',
      'Please survey our warehouse roof.',
    ]);

    const dealRead = await api.get(`/deals/${deal.id}`);
    expect((dealRead.body.activity as Body[])[0]).toMatchObject({
      action: 'created',
      cause: `lead ${lead.id} converted`,
    });
  });

  it('leaves the lead Converted: no further status moves, not convertible, its email free for a new enquiry', async () => {
    const lead = await newLead({ name: 'Sam', email: 'sam@example.com' });
    await api.post(`/leads/${lead.id}/convert`);
    const read = await api.get(`/leads/${lead.id}`);
    expect(read.body).toMatchObject({
      lead: { status: 'Converted' },
      nextStatuses: LEAD_STATUS_MACHINE.moves.Converted,
      convertible: false,
    });
    const again = await api.post('/leads', { name: 'Sam', email: 'sam@example.com' });
    expect(again.status).toBe(201);
    expect((again.body.lead as Body).id).not.toBe(lead.id);
  });

  it('is exactly once with an idempotency key: the replay answers the same customer and deal', async () => {
    const lead = await newLead({ name: 'Keyed Karl' });
    const first = await api.post(`/leads/${lead.id}/convert`, undefined, {
      'idempotency-key': 'convert-karl',
    });
    const replay = await api.post(`/leads/${lead.id}/convert`, undefined, {
      'idempotency-key': 'convert-karl',
    });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(200);
    expect(replay.body.replayed).toBe(true);
    expect((replay.body.customer as Body).id).toBe((first.body.customer as Body).id);
    expect((replay.body.deal as Body).id).toBe((first.body.deal as Body).id);
    const customers = await api.get('/customers?q=Keyed%20Karl');
    expect(customers.body.items as Body[]).toHaveLength(1);
  });

  it('answers 409 for a lead already converted, naming what it became, and creates nothing', async () => {
    const lead = await newLead({ name: 'Twice Tina' });
    const first = await api.post(`/leads/${lead.id}/convert`);
    const second = await api.post(`/leads/${lead.id}/convert`);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      ok: false,
      code: 'conflict',
      status: 'Converted',
      convertedTo: { customerId: (first.body.customer as Body).id },
    });
    const customers = await api.get('/customers?q=Twice%20Tina');
    expect(customers.body.items as Body[]).toHaveLength(1);
  });

  const notConvertible = LEAD_STATUSES.filter(
    (status) =>
      status !== 'Converted' && !(LEAD_STATUS_MACHINE.convertibleFrom as readonly string[]).includes(status),
  );
  it.each(notConvertible)(
    'answers 409 for a lead that is %s, listing the convertible statuses',
    async (status) => {
      const lead = await newLead({ name: `Status ${status}` });
      expect((await moveLead(lead.id, status)).status).toBe(200);
      const reply = await api.post(`/leads/${lead.id}/convert`);
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({
        code: 'conflict',
        status,
        convertibleFrom: LEAD_STATUS_MACHINE.convertibleFrom,
      });
      expect(((await api.get(`/leads/${lead.id}`)).body.lead as Body).status).toBe(status);
    },
  );

  it.each([...LEAD_STATUS_MACHINE.convertibleFrom])('converts a lead that is %s', async (status) => {
    const lead = await newLead({ name: `Convertible ${status}` });
    if (status !== LEAD_STATUS_MACHINE.initial) expect((await moveLead(lead.id, status)).status).toBe(200);
    const reply = await api.post(`/leads/${lead.id}/convert`);
    expect(reply.status).toBe(201);
    // How far the lead got carries over: a Qualified lead becomes a Qualified customer.
    expect((reply.body.customer as Body).stage).toBe(status === 'Qualified' ? 'Qualified' : 'Lead');
  });

  it('answers 404 for an unknown lead and refuses a body', async () => {
    const missing = await api.post('/leads/lead_missing/convert');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    const lead = await newLead({ name: 'Body Bob' });
    const withBody = await api.post(`/leads/${lead.id}/convert`, { stage: 'Active' });
    expect(withBody.status).toBe(400);
    expect(withBody.body.code).toBe('invalid_body');
  });

  it('rehearses a dry run without converting', async () => {
    const lead = await newLead({ name: 'Dry Dora', message: 'hello' });
    const dry = await api.post(`/leads/${lead.id}/convert`, undefined, { 'x-service-dry-run': '1' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, applied: false });
    expect(dry.body.willDo).toMatch(/Convert lead/);
    expect(((await api.get(`/leads/${lead.id}`)).body.lead as Body).status).toBe('New');
    expect((await api.get('/customers?q=Dry%20Dora')).body.items as Body[]).toHaveLength(0);
  });

  it('needs create on customers: a token narrowed to leads is refused, naming the scope', async () => {
    const narrowed = await platform.token(tenantId, {
      role: 'Manager',
      permissions: { lead: ['read', 'create', 'update'] },
    });
    const lead = await newLead({ name: 'Scoped Sue' });
    const reply = await narrowed.api.post(`/leads/${lead.id}/convert`);
    expect(reply.status).toBe(403);
    expect(reply.body.required).toEqual({ action: 'create', kind: 'customer' });
  });

  it('records lead.converted with the customer and deal it created on the event log', async () => {
    const lead = await newLead({ name: 'Evented Eve' });
    const reply = await api.post(`/leads/${lead.id}/convert`);
    const customerId = (reply.body.customer as Body).id as string;
    const actions = await eventually(async () => {
      const items = (await api.get(`/audit?resourceId=${lead.id}`)).body.items as Body[] | undefined;
      const found = (items ?? []).map((entry) => entry.action);
      return found.includes('lead.converted') ? found : undefined;
    });
    expect(actions).toContain('lead.created');
    const customerTrail = await eventually(async () => {
      const items = (await api.get(`/audit?resourceId=${customerId}`)).body.items as Body[] | undefined;
      return items?.length ? items : undefined;
    });
    expect(customerTrail.map((entry) => entry.action)).toContain('customer.created');
  });
});
