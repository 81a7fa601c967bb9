// Customers through the handlers: create, the activity trail, the stage machine, If-Match,
// filters and paging, the detail read, tenant isolation, replay and events.
import { pagesBothWays } from '@fieldops/kit/testing';
import { crm } from '@fieldops/proto';
import { ACTIVITY, CUSTOMERS } from '../src/collections.ts';
import { ctx, openTestCrm, outboxEvents, refusal, type TestCrm } from './harness.ts';

describe('customers', () => {
  let t: TestCrm;
  beforeEach(async () => {
    t = await openTestCrm();
  });
  afterEach(() => t.close());

  const newCustomer = async (fields: Partial<Parameters<TestCrm['crm']['createCustomer']>[0]> = {}) => {
    const { customer } = await t.crm.createCustomer({ name: 'Acme Quarry', ...fields }, ctx());
    if (!customer) throw new Error('no customer');
    return customer;
  };

  it('creates at stage Lead by default, with a created activity entry and customer.created', async () => {
    const { customer, meta } = await t.crm.createCustomer(
      { name: 'Acme', email: 'ops@acme.io', company: 'Acme Ltd' },
      ctx({ principal: { kind: 'token', tokenId: 'tok_9', role: 'Staff', memberId: '' } }),
    );
    expect(customer).toMatchObject({ name: 'Acme', stage: 'Lead', etag: `${customer?.id}:v1` });
    expect(customer?.id).toMatch(/^cus_/);
    expect(meta).toMatchObject({ created: true, replayed: false });
    const detail = await t.crm.getCustomer({ id: customer?.id ?? '' }, ctx());
    expect(detail.activity).toEqual([
      expect.objectContaining({
        action: 'created',
        actor: 'tok_9', // an unbound token is named by its id
        changes: expect.arrayContaining([
          { field: 'name', to: 'Acme' },
          { field: 'stage', to: 'Lead' },
        ]),
      }),
    ]);
    const events = await outboxEvents(t.store);
    expect(events.map((event) => event.type)).toEqual(['customer.created']);
    expect(events[0]?.data['customer']).toEqual(customer);
  });

  it('accepts any stage on create and refuses an unknown one', async () => {
    expect((await newCustomer({ stage: 'Active' })).stage).toBe('Active');
    const error = await refusal(t.crm.createCustomer({ name: 'X', stage: 'Won' }, ctx()));
    expect(error.code).toBe('field_invalid_enum');
  });

  it('writes every change to the activity trail with field, from, to, actor and request id', async () => {
    const customer = await newCustomer({ email: 'a@acme.io' });
    const request = ctx({ requestId: 'req_patch_1' });
    const { customer: updated } = await t.crm.updateCustomer(
      { id: customer.id, ifMatch: customer.etag, stage: 'Qualified', phone: '+1 555', email: '' },
      request,
    );
    expect(updated).toMatchObject({ stage: 'Qualified', phone: '+1 555' });
    expect(updated?.email).toBeUndefined();
    const detail = await t.crm.getCustomer({ id: customer.id }, ctx());
    expect(detail.activity.map((entry) => entry.action)).toEqual(['updated', 'created']); // newest first
    expect(detail.activity[0]).toMatchObject({
      actor: 'mem_ana',
      requestId: 'req_patch_1',
      changes: [
        { field: 'email', from: 'a@acme.io' },
        { field: 'phone', to: '+1 555' },
        { field: 'stage', from: 'Lead', to: 'Qualified' },
      ],
    });
    const updatedEvents = (await outboxEvents(t.store)).filter((event) => event.type === 'customer.updated');
    expect(updatedEvents).toHaveLength(1);
    expect(updatedEvents[0]?.data['changes']).toEqual(detail.activity[0]?.changes);
  });

  it('refuses an illegal stage move with 409 conflict listing the legal transitions', async () => {
    const customer = await newCustomer({ stage: 'Active' });
    const error = await refusal(
      t.crm.updateCustomer({ id: customer.id, ifMatch: '*', stage: 'Proposal' }, ctx()),
    );
    expect(error.code).toBe('conflict');
    expect(error.extras).toEqual({ legalTransitions: ['Lost'], stage: 'Active' });
    await t.crm.updateCustomer({ id: customer.id, ifMatch: '*', stage: 'Lost' }, ctx());
    const reopened = await t.crm.updateCustomer({ id: customer.id, ifMatch: '*', stage: 'Lead' }, ctx());
    expect(reopened.customer?.stage).toBe('Lead');
    expect((await t.crm.getCustomer({ id: customer.id }, ctx())).nextStages).toEqual([
      'Qualified',
      'Proposal',
      'Active',
      'Lost',
    ]);
  });

  it('a stale If-Match is 409 with the current customer attached; * overwrites', async () => {
    const customer = await newCustomer();
    const { customer: current } = await t.crm.updateCustomer(
      { id: customer.id, ifMatch: customer.etag, company: 'New Co' },
      ctx(),
    );
    const error = await refusal(
      t.crm.updateCustomer({ id: customer.id, ifMatch: customer.etag, name: 'Old' }, ctx()),
    );
    expect(error.code).toBe('conflict');
    expect(error.extras['current']).toEqual(current);
    const forced = await t.crm.updateCustomer({ id: customer.id, ifMatch: '*', name: 'Forced' }, ctx());
    expect(forced.customer?.name).toBe('Forced');
    expect(await t.store.count(ACTIVITY, 'ten_alpha', { subjectId: customer.id })).toBe(3);
  });

  it('a PATCH that changes nothing writes no activity and no event', async () => {
    const customer = await newCustomer();
    const { meta } = await t.crm.updateCustomer(
      { id: customer.id, ifMatch: customer.etag, name: 'Acme Quarry' },
      ctx(),
    );
    expect(meta?.replayed).toBe(true);
    expect(await t.store.count(ACTIVITY, 'ten_alpha', {})).toBe(1);
    expect(await outboxEvents(t.store)).toHaveLength(1);
  });

  it('lists newest first with q over name, email, company and the stage filter', async () => {
    const a = await newCustomer({ name: 'Acme Quarry', email: 'ops@acme.io' });
    const b = await newCustomer({ name: 'Bo', company: 'Granite Works' });
    const c = await newCustomer({ name: 'Cy', email: 'cy@GRANITE.io', stage: 'Active' });
    const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);
    expect(new Set(ids(await t.crm.listCustomers({}, ctx())))).toEqual(new Set([a.id, b.id, c.id]));
    expect(new Set(ids(await t.crm.listCustomers({ q: 'granite' }, ctx())))).toEqual(new Set([b.id, c.id]));
    expect(ids(await t.crm.listCustomers({ q: 'ACME' }, ctx()))).toEqual([a.id]);
    expect(ids(await t.crm.listCustomers({ stage: 'Active' }, ctx()))).toEqual([c.id]);
    expect(ids(await t.crm.listCustomers({ stage: 'Lead', q: 'granite' }, ctx()))).toEqual([b.id]);
  });

  it('pages with the limit given', async () => {
    for (let i = 0; i < 5; i++) await newCustomer({ name: `C${i}` });
    const first = await t.crm.listCustomers({ page: { cursor: '', limit: 2 } }, ctx());
    const second = await t.crm.listCustomers({ page: { cursor: first.nextCursor, limit: 2 } }, ctx());
    const third = await t.crm.listCustomers({ page: { cursor: second.nextCursor, limit: 2 } }, ctx());
    const all = [...first.items, ...second.items, ...third.items].map((item) => item.id);
    expect(new Set(all).size).toBe(5);
    expect(third.nextCursor).toBe('');
  });

  it('answers itemsAsJson with the JSON of exactly what items decode to, page by page', async () => {
    for (let i = 0; i < 5; i++) await newCustomer({ name: `C${i}`, email: `c${i}@x.io` });
    const pages = await pagesBothWays((page) => t.crm.listCustomers({ page }, ctx()), crm.Customer);
    expect(pages).toHaveLength(3);
    for (const page of pages) expect(page.json).toEqual(page.items);
  });

  it('the detail read carries related records and a zero rollup in the tenant currency', async () => {
    const customer = await newCustomer();
    const detail = await t.crm.getCustomer({ id: customer.id }, ctx());
    expect(detail.related).toEqual({ deals: [], projects: [], captures: [], proposals: [], invoices: [] });
    expect(detail.rollup).toEqual({
      currency: 'EUR',
      openDealsCents: 0,
      wonCents: 0,
      invoicedCents: 0,
      paidCents: 0,
      outstandingCents: 0,
    });
    expect(detail.nextStages).toEqual(['Qualified', 'Proposal', 'Active', 'Lost']);
  });

  it('never reaches across tenants', async () => {
    const customer = await newCustomer({ email: 'x@acme.io' });
    const other = ctx({ tenantId: 'ten_beta' });
    expect((await refusal(t.crm.getCustomer({ id: customer.id }, other))).code).toBe('not_found');
    expect(
      (await refusal(t.crm.updateCustomer({ id: customer.id, ifMatch: '*', name: 'x' }, other))).code,
    ).toBe('not_found');
    expect((await t.crm.listCustomers({}, other)).items).toEqual([]);
    // A lead in the other tenant is not matched to this tenant's customer.
    const { lead } = await t.crm.createLead({ name: 'X', email: 'x@acme.io' }, other);
    expect(lead?.customerMatch).toBeUndefined();
  });

  it('replays a keyed create with replayed true and stores one customer', async () => {
    const request = { name: 'Keyed Co', opId: 'cus-op-1' };
    const first = await t.crm.createCustomer(request, ctx({ idempotencyKey: 'cus-op-1' }));
    const again = await t.crm.createCustomer(request, ctx({ idempotencyKey: 'cus-op-1' }));
    expect(again.customer).toEqual(first.customer);
    expect(again.meta).toMatchObject({ replayed: true, created: false });
    expect(await t.store.count(CUSTOMERS, 'ten_alpha', {})).toBe(1);
    expect(await outboxEvents(t.store)).toHaveLength(1);
  });

  it('dry run: create and update rehearse with effects and store nothing', async () => {
    const dry = await t.crm.createCustomer({ name: 'Dry Co' }, ctx({ dryRun: true }));
    expect(dry.meta?.rehearsal?.willDo).toBe('Create customer "Dry Co" at stage Lead.');
    expect(dry.meta?.rehearsal?.effects.map((effect) => `${effect.action}:${effect.kind}`)).toEqual([
      'create:customer',
      'create:activity',
      'event:customer.created',
    ]);
    expect(await t.store.count(CUSTOMERS, 'ten_alpha', {})).toBe(0);

    const customer = await newCustomer();
    const update = await t.crm.updateCustomer(
      { id: customer.id, ifMatch: customer.etag, stage: 'Proposal' },
      ctx({ dryRun: true }),
    );
    expect(update.meta?.rehearsal?.willDo).toBe(`Update customer ${customer.id}: stage Lead → Proposal.`);
    expect((await t.crm.getCustomer({ id: customer.id }, ctx())).customer).toEqual(customer);
    expect(await t.store.count(ACTIVITY, 'ten_alpha', {})).toBe(1);
  });
});
