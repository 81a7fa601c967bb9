// Proposals through the handlers: pricing, the draft rules, send (mail, link, deal move, event),
// the customer's acts through the link, lapsing, and what each write emits.
import { PROPOSALS } from '../src/collections.ts';
import type { ProposalDoc } from '../src/proposals/proposal.model.ts';
import { LINES, linkCtx, openTestBilling, TOTAL } from './billing.support.ts';
import type { TestBilling } from './billing.support.ts';
import { ctx, outboxEvents, refusal, TENANT_B } from './harness.ts';

describe('proposals', () => {
  let t: TestBilling;
  beforeEach(async () => {
    t = await openTestBilling();
  });
  afterEach(() => t.close());

  const draft = async (fields: Record<string, unknown> = {}) => {
    const { proposal } = await t.billing.proposals.createProposal(
      { customerId: t.customerId, title: 'Roof survey', lines: LINES, ...fields },
      ctx(),
    );
    if (!proposal) throw new Error('no proposal');
    return proposal;
  };
  const send = (id: string, c = ctx()) => t.billing.proposals.sendProposal({ id }, c);
  const types = async () => (await outboxEvents(t.store)).map((event) => event.type);

  it('prices lines half up once per line and sums the rounded figures, in the tenant currency', async () => {
    const p = await draft();
    expect(p.lines.map((line) => [line.amountCents, line.taxCents])).toEqual([
      [45000, 9000],
      [4998, 0],
    ]);
    expect(p.totals).toEqual({ subtotalCents: 49998, taxCents: 9000, totalCents: TOTAL, currency: 'EUR' });
    expect(await types()).toContain('proposal.created');
  });

  it('refuses more than three decimals of quantity and an unsafe price', async () => {
    const thin = await refusal(draft({ lines: [{ ...LINES[0], quantity: 0.0005 }] }));
    expect(thin).toMatchObject({ code: 'field_invalid', extras: { field: 'lines[0].quantity' } });
    const huge = await refusal(draft({ lines: [{ ...LINES[0], unitPriceCents: 2 ** 60 }] }));
    expect(huge.code).toBe('field_invalid');
  });

  it('keeps tenants apart: another tenant reads 404 and cannot draft for this customer', async () => {
    const p = await draft();
    expect(
      (await refusal(t.billing.proposals.getProposal({ id: p.id }, ctx({ tenantId: TENANT_B })))).code,
    ).toBe('not_found');
    const foreign = await refusal(
      t.billing.proposals.createProposal(
        { customerId: t.customerId, title: 'x', lines: [] },
        ctx({ tenantId: TENANT_B }),
      ),
    );
    expect(foreign.code).toBe('not_found');
  });

  it('send commits the status, the queued email, the deal move and proposal.sent together', async () => {
    const { deal } = await t.deals.createDeal({ customerId: t.customerId }, ctx());
    const p = await draft({ customerId: undefined, dealId: deal?.id });
    const rehearsal = await send(p.id, ctx({ dryRun: true }));
    expect(rehearsal.meta?.rehearsal).toMatchObject({
      recipientMasked: 'd***@roofs.example',
      totalCents: TOTAL,
    });
    expect(await types()).toEqual(['customer.created', 'deal.created', 'proposal.created']);

    const sent = await send(p.id);
    expect(sent.proposal).toMatchObject({ status: 'sent', validUntil: expect.any(String) });
    expect(sent.dealMove).toMatchObject({ moved: true, fromStage: 'lead', toStage: 'proposal_sent' });
    const events = await outboxEvents(t.store);
    const event = events.find((e) => e.type === 'proposal.sent');
    expect(event?.data).toMatchObject({ recipientMasked: 'd***@roofs.example' });
    // The link is the customer's: never in an event.
    expect(JSON.stringify(events)).not.toContain(await t.linkOf(p.id));
    expect(events.map((e) => e.type)).toContain('deal.stage_changed');
  });

  it('a sent proposal defaults to 30 days of validity', async () => {
    const p = await draft();
    const { proposal } = await send(p.id);
    const days = (Date.parse(proposal?.validUntil ?? '') - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('signing through the link wins the deal at the total and emits proposal.signed with the signer', async () => {
    const { deal } = await t.deals.createDeal({ customerId: t.customerId }, ctx());
    const p = await draft({ dealId: deal?.id });
    await send(p.id);
    const token = await t.linkOf(p.id);
    const signed = await t.billing.clientLinks.signProposal(
      { token, signerName: '  Dana  ', ip: '203.0.113.9', userAgent: 'ua' },
      linkCtx(),
    );
    // The customer sees who signed and when, never the evidence kept for the business.
    expect(signed.signature).toMatchObject({ signerName: 'Dana', ip: '', userAgent: '' });
    const stored = await t.store.get<ProposalDoc>(PROPOSALS, 'ten_alpha', p.id);
    expect(stored?.signature).toMatchObject({ ip: '203.0.113.9', userAgent: 'ua' });
    const { deal: after } = await t.deals.getDeal({ id: deal?.id ?? '' }, ctx());
    expect(after).toMatchObject({ stage: 'won', value: { cents: TOTAL, currency: 'EUR' } });
    const event = (await outboxEvents(t.store)).find((e) => e.type === 'proposal.signed');
    expect(event).toMatchObject({
      resource: { kind: 'proposal', id: p.id },
      data: { signerName: 'Dana', to: 'signed', dealMove: { moved: true, toStage: 'won' } },
    });
    // Signing again changes nothing.
    const again = await t.billing.clientLinks.signProposal(
      { token, signerName: 'X', ip: '', userAgent: '' },
      linkCtx(),
    );
    expect(again.signature?.signerName).toBe('Dana');
  });

  it('a sign that cannot move the deal still signs, and says why the deal stayed', async () => {
    const { deal } = await t.deals.createDeal({ customerId: t.customerId }, ctx());
    const p = await draft({ dealId: deal?.id });
    await send(p.id);
    await t.deals.loseDeal({ id: deal?.id ?? '', reason: 'Went quiet' }, ctx());
    await t.billing.clientLinks.signProposal(
      { token: await t.linkOf(p.id), signerName: 'Dana', ip: '', userAgent: '' },
      linkCtx(),
    );
    const event = (await outboxEvents(t.store)).find((e) => e.type === 'proposal.signed');
    expect(event?.data).toMatchObject({ dealMove: { moved: false, fromStage: 'lost' } });
    expect((await t.deals.getDeal({ id: deal?.id ?? '' }, ctx())).deal?.stage).toBe('lost');
  });

  it('the first use of a lapsed link records the expiry and refuses to sign', async () => {
    const p = await draft();
    await send(p.id);
    const token = await t.linkOf(p.id);
    const doc = await t.store.get<ProposalDoc>(PROPOSALS, 'ten_alpha', p.id);
    if (!doc) throw new Error('missing');
    // The offer's validity ran out (written as the clock would leave it).
    await t.store.commit('ten_alpha', [
      {
        op: 'replace',
        collection: PROPOSALS,
        doc: { ...doc, validUntil: new Date(Date.now() - 1000).toISOString() },
        expectedVersion: doc.version,
      },
    ]);
    expect((await t.billing.proposals.getProposal({ id: p.id }, ctx())).proposal?.status).toBe('expired');
    const late = await refusal(
      t.billing.clientLinks.signProposal({ token, signerName: 'Dana', ip: '', userAgent: '' }, linkCtx()),
    );
    expect(late.code).toBe('conflict');
    expect((await t.store.get<ProposalDoc>(PROPOSALS, 'ten_alpha', p.id))?.status).toBe('expired');
    expect(await types()).toContain('proposal.expired');
  });

  it('a proposal link opens nothing else: used for an invoice it is 404', async () => {
    const p = await draft();
    await send(p.id);
    const wrongKind = await refusal(
      t.billing.clientLinks.openInvoice({ token: await t.linkOf(p.id) }, linkCtx()),
    );
    expect(wrongKind.code).toBe('not_found');
    const garbage = await refusal(t.billing.clientLinks.openProposal({ token: 'v1.k1.abc.def' }, linkCtx()));
    expect(garbage.code).toBe('not_found');
  });

  it('an unchanged PATCH answers replayed and emits nothing', async () => {
    const p = await draft();
    const same = await t.billing.proposals.updateProposal(
      { id: p.id, ifMatch: p.etag, title: 'Roof survey', lines: [], hasLines: false },
      ctx(),
    );
    expect(same.meta?.replayed).toBe(true);
    expect((await types()).filter((type) => type === 'proposal.updated')).toEqual([]);
  });
});
