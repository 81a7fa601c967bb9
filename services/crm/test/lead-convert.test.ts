// convertLead through the handlers: one commit with the customer, its timeline, the opening deal,
// the converted lead and their events; exactly once by key, even when duplicates race.
import { LEAD_STATUS_MACHINE } from '@fieldops/contracts';
import { createDealHandlers } from '../src/index.ts';
import { ctx, openTestCrm, outboxEvents, refusal, TENANT_B } from './harness.ts';
import type { TestCrm } from './harness.ts';

describe('convertLead', () => {
  let t: TestCrm;
  beforeEach(async () => {
    t = await openTestCrm();
  });
  afterEach(() => t.close());

  const newLead = async (fields: { name: string; email?: string; message?: string }) => {
    const { lead } = await t.crm.createLead(fields, ctx());
    if (!lead) throw new Error('no lead created');
    return lead;
  };

  it('commits the customer, its logged messages, the opening deal, the converted lead and their events', async () => {
    const lead = await newLead({ name: 'Ana', email: 'ana@x.io', message: 'Survey my roof' });
    const before = (await outboxEvents(t.store)).length;
    const { conversion, meta } = await t.crm.convertLead({ id: lead.id }, ctx());
    expect(meta).toMatchObject({ created: true, replayed: false });
    const { customer, deal } = conversion ?? {};
    expect(conversion?.lead).toMatchObject({
      status: LEAD_STATUS_MACHINE.afterConversion,
      convertedTo: { customerId: customer?.id, dealId: deal?.id },
    });
    expect(deal).toMatchObject({
      customerId: customer?.id,
      leadId: lead.id,
      value: { cents: 0, currency: 'EUR' },
    });

    const events = (await outboxEvents(t.store)).slice(before).map((event) => event.type);
    expect(events).toEqual(['customer.created', 'deal.created', 'lead.converted']);
    const detail = await t.crm.getCustomer({ id: customer?.id ?? '' }, ctx());
    expect(detail.activity.find((entry) => entry.action === 'message_logged')).toMatchObject({
      note: 'Survey my roof',
    });
    const dealDetail = await createDealHandlers(t.store).getDeal({ id: deal?.id ?? '' }, ctx());
    expect(dealDetail.activity[0]).toMatchObject({ action: 'created', cause: `lead ${lead.id} converted` });
  });

  it('creates exactly one customer and deal for racing duplicates with the same key', async () => {
    const lead = await newLead({ name: 'Race' });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => t.crm.convertLead({ id: lead.id }, ctx({ idempotencyKey: 'conv-1' }))),
    );
    expect(new Set(results.map((r) => r.conversion?.customer?.id)).size).toBe(1);
    expect(results.filter((r) => r.meta?.replayed)).toHaveLength(4);
    expect((await t.crm.listCustomers({}, ctx())).items).toHaveLength(1);
    expect((await createDealHandlers(t.store).listDeals({}, ctx())).items).toHaveLength(1);
  });

  it('lets exactly one of racing unkeyed conversions win; the others are refused with conflict', async () => {
    const lead = await newLead({ name: 'Unkeyed race' });
    const settled = await Promise.allSettled(
      Array.from({ length: 4 }, () => t.crm.convertLead({ id: lead.id }, ctx())),
    );
    expect(settled.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of settled) {
      if (result.status === 'rejected') expect((result.reason as { code: string }).code).toBe('conflict');
    }
    expect((await t.crm.listCustomers({}, ctx())).items).toHaveLength(1);
    expect((await createDealHandlers(t.store).listDeals({}, ctx())).items).toHaveLength(1);
  });

  it('refuses a second conversion without a key, and a Lost lead, with conflict and nothing written', async () => {
    const lead = await newLead({ name: 'Once' });
    await t.crm.convertLead({ id: lead.id }, ctx());
    const lost = await newLead({ name: 'Gone' });
    await t.crm.updateLead({ id: lost.id, ifMatch: '*', status: 'Lost' }, ctx());
    const before = (await outboxEvents(t.store)).length;
    const again = await refusal(t.crm.convertLead({ id: lead.id }, ctx()));
    expect(again.code).toBe('conflict');
    expect(again.extras['convertedTo']).toBeDefined();

    const refused = await refusal(t.crm.convertLead({ id: lost.id }, ctx()));
    expect(refused.extras).toMatchObject({
      status: 'Lost',
      convertibleFrom: LEAD_STATUS_MACHINE.convertibleFrom,
    });
    expect((await outboxEvents(t.store)).length).toBe(before);
    expect((await t.crm.listCustomers({}, ctx())).items).toHaveLength(1);
  });

  it('rehearses without writing, and finds no lead of another tenant', async () => {
    const lead = await newLead({ name: 'Dry', message: 'hi' });
    const dry = await t.crm.convertLead({ id: lead.id }, ctx({ dryRun: true }));
    expect(dry.meta?.rehearsal?.willDo).toMatch(/log 1 inbound message/);
    expect((await t.crm.listCustomers({}, ctx())).items).toHaveLength(0);
    expect((await refusal(t.crm.convertLead({ id: lead.id }, ctx({ tenantId: TENANT_B })))).code).toBe(
      'not_found',
    );
  });
});
