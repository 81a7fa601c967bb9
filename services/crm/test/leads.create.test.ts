// createLead through the handlers: the new lead, dedupe, customer match, events, replay, dry run.
import { LEADS } from '../src/collections.ts';
import { MAX_LEAD_SCORE } from '../src/leads/lead-score.ts';
import { ctx, openTestCrm, outboxEvents } from './harness.ts';
import type { TestCrm } from './harness.ts';

describe('createLead', () => {
  let t: TestCrm;
  beforeEach(async () => {
    t = await openTestCrm();
  });
  afterEach(() => t.close());

  it('creates a New lead with its score, first inbound message and a lead.created event', async () => {
    const { lead, meta } = await t.crm.createLead(
      { name: ' Ana Roof ', email: 'Ana@Example.com', message: 'Need a roof survey', source: 'web' },
      ctx(),
    );
    expect(lead).toMatchObject({
      name: 'Ana Roof',
      email: 'Ana@Example.com',
      status: 'New',
      score: 15 + 20 + 15 + 5,
      etag: `${lead?.id}:v1`,
    });
    expect(lead?.id).toMatch(/^lead_/);
    expect(meta).toEqual({ replayed: false, deduped: false, created: true, rehearsal: undefined });

    const detail = await t.crm.getLead({ id: lead?.id ?? '' }, ctx());
    expect(detail.inboundMessages).toEqual([
      expect.objectContaining({ body: 'Need a roof survey', source: 'web' }),
    ]);
    expect(detail.nextStatuses).toEqual(['Contacted', 'Qualified', 'Lost']);
    expect(detail.convertible).toBe(true);

    const events = await outboxEvents(t.store);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'lead.created',
      tenantId: 'ten_alpha',
      resource: { kind: 'lead', id: lead?.id },
      context: { principal: { tokenId: 'tok_test' }, agent: { runId: 'run_1' } },
      data: { lead: { id: lead?.id, status: 'New' } },
    });
  });

  it('scores data completeness only, within 0..85', async () => {
    const bare = await t.crm.createLead({ name: 'Only A Name' }, ctx());
    expect(bare.lead?.score).toBe(15);
    const full = await t.crm.createLead(
      { name: 'Full', email: 'full@x.io', phone: '+1 555', message: 'hi', source: 'ads', ownerId: 'mem_1' },
      ctx(),
    );
    expect(full.lead?.score).toBe(MAX_LEAD_SCORE);
    // Blank optional fields count as absent.
    const blank = await t.crm.createLead({ name: 'Blank', phone: '   ', message: '' }, ctx());
    expect(blank.lead?.score).toBe(15);
    expect(blank.lead?.phone).toBeUndefined();
  });

  describe('dedupe', () => {
    it('returns the open lead with the same email (any case), deduped, and logs the new message on it', async () => {
      const first = await t.crm.createLead(
        { name: 'Ana', email: 'ana@example.com', message: 'first' },
        ctx(),
      );
      const second = await t.crm.createLead(
        { name: 'Ana B', email: ' ANA@example.com ', message: 'second', phone: '123' },
        ctx(),
      );
      expect(second.meta).toMatchObject({ deduped: true, created: false, replayed: false });
      expect(second.lead).toEqual(first.lead); // the lead itself is not changed
      const detail = await t.crm.getLead({ id: first.lead?.id ?? '' }, ctx());
      expect(detail.inboundMessages.map((message) => message.body).sort()).toEqual(['first', 'second']);
      expect(await t.store.count(LEADS, 'ten_alpha', {})).toBe(1);
      const types = (await outboxEvents(t.store)).map((event) => event.type);
      expect(types).toEqual(['lead.created', 'lead.message_logged']);
    });

    it('stores nothing when the duplicate capture carries no message', async () => {
      await t.crm.createLead({ name: 'Ana', email: 'ana@example.com' }, ctx());
      const again = await t.crm.createLead({ name: 'Ana', email: 'ana@example.com' }, ctx());
      expect(again.meta?.deduped).toBe(true);
      expect(await outboxEvents(t.store)).toHaveLength(1);
    });

    it('does not dedupe against a closed (Lost) lead', async () => {
      const first = await t.crm.createLead({ name: 'Ana', email: 'ana@example.com' }, ctx());
      await t.crm.updateLead({ id: first.lead?.id ?? '', ifMatch: '*', status: 'Lost' }, ctx());
      const second = await t.crm.createLead({ name: 'Ana', email: 'ana@example.com' }, ctx());
      expect(second.meta).toMatchObject({ deduped: false, created: true });
      expect(second.lead?.id).not.toBe(first.lead?.id);
    });

    it('leads without an email are never deduped', async () => {
      await t.crm.createLead({ name: 'No Mail' }, ctx());
      const second = await t.crm.createLead({ name: 'No Mail' }, ctx());
      expect(second.meta?.deduped).toBe(false);
      expect(await t.store.count(LEADS, 'ten_alpha', {})).toBe(2);
    });

    it('keeps one open lead per email when captures race (no key)', async () => {
      const captures = Array.from({ length: 10 }, (_, i) =>
        t.crm.createLead({ name: `Racer ${i}`, email: 'race@example.com', message: `m${i}` }, ctx()),
      );
      const outcomes = await Promise.all(captures);
      expect(await t.store.count(LEADS, 'ten_alpha', {})).toBe(1);
      expect(outcomes.filter((outcome) => outcome.meta?.created)).toHaveLength(1);
      const id = outcomes[0]?.lead?.id ?? '';
      expect(outcomes.every((outcome) => outcome.lead?.id === id)).toBe(true);
      const detail = await t.crm.getLead({ id }, ctx());
      expect(detail.inboundMessages).toHaveLength(10);
    });

    it('is per tenant: the same email in another tenant is a new lead', async () => {
      await t.crm.createLead({ name: 'Ana', email: 'ana@example.com' }, ctx());
      const other = await t.crm.createLead(
        { name: 'Ana', email: 'ana@example.com' },
        ctx({ tenantId: 'ten_beta' }),
      );
      expect(other.meta).toMatchObject({ deduped: false, created: true });
    });
  });

  it('flags a customer with the same email, never merging', async () => {
    const { customer } = await t.crm.createCustomer({ name: 'Ana Co', email: 'ana@example.com' }, ctx());
    const { lead } = await t.crm.createLead({ name: 'Ana', email: 'ANA@example.com' }, ctx());
    expect(lead?.customerMatch).toEqual({ customerId: customer?.id, matchedOn: 'email' });
    const after = await t.crm.getCustomer({ id: customer?.id ?? '' }, ctx());
    expect(after.customer).toEqual(customer);
    const unmatched = await t.crm.createLead({ name: 'Bo', email: 'bo@example.com' }, ctx());
    expect(unmatched.lead?.customerMatch).toBeUndefined();
  });

  it('replays by opId: the original lead, replayed true, nothing new stored', async () => {
    const request = { name: 'Keyed', email: 'k@example.com', message: 'hello', opId: 'op-lead-1' };
    const first = await t.crm.createLead(request, ctx({ idempotencyKey: 'op-lead-1' }));
    const again = await t.crm.createLead(request, ctx({ idempotencyKey: 'op-lead-1' }));
    expect(first.lead?.opId).toBe('op-lead-1');
    expect(again.lead).toEqual(first.lead);
    expect(again.meta).toMatchObject({ replayed: true, created: false, deduped: false });
    expect(await outboxEvents(t.store)).toHaveLength(1);
    const detail = await t.crm.getLead({ id: first.lead?.id ?? '' }, ctx());
    expect(detail.inboundMessages).toHaveLength(1);
  });

  it('refuses an opId reused for a different lead', async () => {
    await t.crm.createLead({ name: 'One', opId: 'op-x' }, ctx({ idempotencyKey: 'op-x' }));
    await expect(
      t.crm.createLead({ name: 'Two', opId: 'op-x' }, ctx({ idempotencyKey: 'op-x' })),
    ).rejects.toMatchObject({
      code: 'field_invalid',
      extras: { field: 'opId' },
    });
  });

  it('dry run: rehearses the create with its effects and stores nothing', async () => {
    const { lead, meta } = await t.crm.createLead(
      { name: 'Dry', email: 'dry@example.com', message: 'm' },
      ctx({ dryRun: true }),
    );
    expect(meta?.created).toBe(false);
    expect(meta?.rehearsal?.willDo).toMatch(/^Create lead "Dry" with status New/);
    expect(meta?.rehearsal?.effects.map((effect) => [effect.action, effect.kind])).toEqual([
      ['create', 'lead'],
      ['create', 'inbound_message'],
      ['event', 'lead.created'],
    ]);
    expect(meta?.rehearsal?.effects[0]?.changes).toEqual(
      expect.arrayContaining([
        { field: 'name', to: 'Dry' },
        { field: 'status', to: 'New' },
      ]),
    );
    expect(lead?.name).toBe('Dry');
    expect(await t.store.count(LEADS, 'ten_alpha', {})).toBe(0);
    expect(await outboxEvents(t.store)).toHaveLength(0);
  });
});
