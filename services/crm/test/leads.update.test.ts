// updateLead through the handlers: the status machine and its 409 extras, Converted refused,
// If-Match, the open-email key following the status, events and replays.
import { ctx, openTestCrm, outboxEvents, refusal } from './harness.ts';
import type { TestCrm } from './harness.ts';

describe('updateLead', () => {
  let t: TestCrm;
  beforeEach(async () => {
    t = await openTestCrm();
  });
  afterEach(() => t.close());

  const newLead = async (fields: { email?: string; name?: string } = {}) => {
    const { lead } = await t.crm.createLead({ name: fields.name ?? 'Ana', email: fields.email }, ctx());
    if (!lead) throw new Error('no lead created');
    return lead;
  };

  it('moves along the machine with the etag from a read and emits lead.updated with the changes', async () => {
    const lead = await newLead();
    const { lead: moved, meta } = await t.crm.updateLead(
      { id: lead.id, ifMatch: lead.etag, status: 'Contacted', phone: '+1 555 0100' },
      ctx(),
    );
    expect(moved).toMatchObject({ status: 'Contacted', phone: '+1 555 0100', score: 15 + 20 });
    expect(moved?.etag).not.toBe(lead.etag);
    expect(meta).toMatchObject({ replayed: false, created: false });
    const updated = (await outboxEvents(t.store)).filter((event) => event.type === 'lead.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]?.data['changes']).toEqual([
      { field: 'phone', to: '+1 555 0100' },
      { field: 'status', from: 'New', to: 'Contacted' },
      { field: 'score', from: '15', to: '35' },
    ]);
    const detail = await t.crm.getLead({ id: lead.id }, ctx());
    expect(detail.nextStatuses).toEqual(['Qualified', 'Lost']);
  });

  it('refuses an illegal move with 409 conflict listing the legal transitions', async () => {
    const lead = await newLead();
    await t.crm.updateLead({ id: lead.id, ifMatch: '*', status: 'Lost' }, ctx());
    const error = await refusal(t.crm.updateLead({ id: lead.id, ifMatch: '*', status: 'Qualified' }, ctx()));
    expect(error.code).toBe('conflict');
    expect(error.extras).toEqual({ legalTransitions: ['New'], status: 'Lost' });
    expect((await t.crm.getLead({ id: lead.id }, ctx())).lead?.status).toBe('Lost');
  });

  it('refuses status Converted whatever the state: conversion is its own operation', async () => {
    const lead = await newLead();
    const error = await refusal(
      t.crm.updateLead({ id: lead.id, ifMatch: lead.etag, status: 'Converted' }, ctx()),
    );
    expect(error.code).toBe('conflict');
    expect(error.message).toMatch(/convert/);
    expect(error.extras['legalTransitions']).toEqual(['Contacted', 'Qualified', 'Lost']);
    expect(await outboxEvents(t.store)).toHaveLength(1); // only lead.created
  });

  it('a stale If-Match is 409 with the current lead attached; * overwrites', async () => {
    const lead = await newLead();
    const { lead: renamed } = await t.crm.updateLead(
      { id: lead.id, ifMatch: lead.etag, name: 'Ana Two' },
      ctx(),
    );
    const error = await refusal(t.crm.updateLead({ id: lead.id, ifMatch: lead.etag, name: 'Stale' }, ctx()));
    expect(error.code).toBe('conflict');
    expect(error.extras['current']).toEqual(renamed);
    const { lead: forced } = await t.crm.updateLead({ id: lead.id, ifMatch: '*', name: 'Forced' }, ctx());
    expect(forced?.name).toBe('Forced');
  });

  it('accepts the etag without quotes and refuses one read from another lead', async () => {
    const lead = await newLead({ email: 'a@x.io' });
    const other = await newLead({ email: 'b@x.io' });
    const unquoted = lead.etag.replace(/"/g, '');
    await expect(
      t.crm.updateLead({ id: lead.id, ifMatch: unquoted, name: 'Ok' }, ctx()),
    ).resolves.toBeDefined();
    const error = await refusal(t.crm.updateLead({ id: other.id, ifMatch: lead.etag, name: 'Wrong' }, ctx()));
    expect(error.code).toBe('conflict');
  });

  it('the open-email key follows the status: reopening is refused while another open lead has the email', async () => {
    const first = await newLead({ email: 'ana@example.com' });
    await t.crm.updateLead({ id: first.id, ifMatch: '*', status: 'Lost' }, ctx());
    const second = await newLead({ email: 'ana@example.com' });
    expect(second.id).not.toBe(first.id);
    const error = await refusal(t.crm.updateLead({ id: first.id, ifMatch: '*', status: 'New' }, ctx()));
    expect(error.code).toBe('conflict');
    expect(error.extras).toMatchObject({ field: 'email', existingLeadId: second.id });
    // Once the second is closed, the first can reopen and dedupes captures again.
    await t.crm.updateLead({ id: second.id, ifMatch: '*', status: 'Lost' }, ctx());
    await t.crm.updateLead({ id: first.id, ifMatch: '*', status: 'New' }, ctx());
    const third = await t.crm.createLead({ name: 'Ana', email: 'ana@example.com' }, ctx());
    expect(third.meta?.deduped).toBe(true);
    expect(third.lead?.id).toBe(first.id);
  });

  it('an email change to one another open lead holds is refused', async () => {
    await newLead({ email: 'taken@example.com' });
    const lead = await newLead({ email: 'mine@example.com' });
    const error = await refusal(
      t.crm.updateLead({ id: lead.id, ifMatch: '*', email: 'TAKEN@example.com' }, ctx()),
    );
    expect(error.code).toBe('conflict');
  });

  it('an email change re-checks the customer match', async () => {
    const { customer } = await t.crm.createCustomer({ name: 'Co', email: 'co@example.com' }, ctx());
    const lead = await newLead({ email: 'someone@example.com' });
    const { lead: matched } = await t.crm.updateLead(
      { id: lead.id, ifMatch: '*', email: 'co@example.com' },
      ctx(),
    );
    expect(matched?.customerMatch).toEqual({ customerId: customer?.id, matchedOn: 'email' });
    const { lead: cleared } = await t.crm.updateLead({ id: lead.id, ifMatch: '*', email: '' }, ctx());
    expect(cleared?.customerMatch).toBeUndefined();
    expect(cleared?.email).toBeUndefined();
  });

  it('a PATCH that changes nothing is answered as already there, storing and emitting nothing', async () => {
    const lead = await newLead();
    const { lead: same, meta } = await t.crm.updateLead(
      { id: lead.id, ifMatch: lead.etag, status: 'New', name: 'Ana' },
      ctx(),
    );
    expect(meta?.replayed).toBe(true);
    expect(same).toEqual(lead);
    expect(await outboxEvents(t.store)).toHaveLength(1);
  });

  it('replays by key: a retried PATCH answers the first result instead of moving twice', async () => {
    const lead = await newLead();
    const request = { id: lead.id, ifMatch: lead.etag, status: 'Contacted' };
    const first = await t.crm.updateLead(request, ctx({ idempotencyKey: 'patch-1' }));
    const again = await t.crm.updateLead(request, ctx({ idempotencyKey: 'patch-1' }));
    expect(again.lead).toEqual(first.lead);
    expect(again.meta?.replayed).toBe(true);
    expect((await outboxEvents(t.store)).filter((event) => event.type === 'lead.updated')).toHaveLength(1);
  });

  it('dry run: rehearses the change and stores nothing', async () => {
    const lead = await newLead();
    const { meta } = await t.crm.updateLead(
      { id: lead.id, ifMatch: lead.etag, status: 'Qualified' },
      ctx({ dryRun: true }),
    );
    expect(meta?.rehearsal?.willDo).toBe(`Update lead ${lead.id}: status New → Qualified.`);
    expect(meta?.rehearsal?.effects[0]).toEqual({
      action: 'update',
      kind: 'lead',
      id: lead.id,
      changes: [{ field: 'status', from: 'New', to: 'Qualified' }],
    });
    expect((await t.crm.getLead({ id: lead.id }, ctx())).lead).toEqual(lead);
  });

  it('not found, also for a lead of another tenant', async () => {
    const lead = await newLead();
    const error = await refusal(
      t.crm.updateLead({ id: lead.id, ifMatch: '*', name: 'x' }, ctx({ tenantId: 'ten_beta' })),
    );
    expect(error.code).toBe('not_found');
    expect((await refusal(t.crm.updateLead({ id: 'lead_missing', ifMatch: '*' }, ctx()))).code).toBe(
      'not_found',
    );
  });
});
