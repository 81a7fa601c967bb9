// The deal pipeline through the handlers, plus the deal-trigger seam other crm aggregates call
// (a signed proposal wins and prices a deal, an issued invoice invoices it) in their own commit.
import { decisionsTableRows } from './decisions-table.ts';
import {
  ADVANCE_TRIGGERS,
  DEAL_STAGE_MACHINE,
  DEAL_STAGES,
  type DealStage,
  type DealTrigger,
} from '@fieldops/contracts';
import { pathTo } from '@fieldops/contracts/testing';
import { pagesBothWays } from '@fieldops/kit/testing';
import { deals as dealsProto } from '@fieldops/proto';
import { customerDeals } from '../src/deals/customer-deals.ts';
import { createDealHandlers, planDealTrigger, type DealHandlers } from '../src/index.ts';
import { ctx, outboxEvents, refusal, TENANT_A, TENANT_B, openTestCrm, type TestCrm } from './harness.ts';

describe('deals', () => {
  let t: TestCrm;
  let deals: DealHandlers;
  let customerId: string;
  beforeEach(async () => {
    t = await openTestCrm();
    deals = createDealHandlers(t.store);
    customerId = (await t.crm.createCustomer({ name: 'Pipeline Ltd' }, ctx())).customer?.id ?? '';
  });
  afterEach(() => t.close());

  const newDeal = async () => {
    const { deal } = await deals.createDeal({ customerId }, ctx());
    if (!deal) throw new Error('no deal created');
    return deal;
  };

  /** Fires the trigger through the seam and commits its ops, as another aggregate's plan would. */
  const fireThroughSeam = async (
    dealId: string,
    trigger: DealTrigger,
    extra: { value?: { cents: number; currency: string }; cause?: string; reason?: string } = {},
  ) => {
    const plan = await planDealTrigger(t.store, ctx(), { dealId, trigger, ...extra });
    if (plan.ops.length) await t.store.commit(TENANT_A, plan.ops);
    return plan;
  };

  describe('createDeal', () => {
    it("opens an unpriced deal at the machine's first stage in the tenant currency, with timeline and event", async () => {
      const { deal, meta } = await deals.createDeal({ customerId, expectedCloseAt: '2026-06-30' }, ctx());
      expect(deal).toMatchObject({
        customerId,
        stage: DEAL_STAGE_MACHINE.initial,
        value: { cents: 0, currency: 'EUR' },
        open: true,
        expectedCloseAt: '2026-06-30',
      });
      expect(meta).toMatchObject({ created: true, replayed: false });
      const detail = await deals.getDeal({ id: deal?.id ?? '' }, ctx());
      expect(detail.activity.map((entry) => entry.action)).toEqual(['created']);
      expect(detail.legalTriggers).toEqual(DEAL_STAGE_MACHINE.legalTriggers(DEAL_STAGE_MACHINE.initial));
      const types = (await outboxEvents(t.store)).map((event) => event.type);
      expect(types).toContain('deal.created');
    });

    it('refuses a customer of another tenant or none with not_found, and a blank customerId as required', async () => {
      expect((await refusal(deals.createDeal({ customerId }, ctx({ tenantId: TENANT_B })))).code).toBe(
        'not_found',
      );
      expect((await refusal(deals.createDeal({ customerId: 'cus_nope' }, ctx()))).code).toBe('not_found');
      expect((await refusal(deals.createDeal({ customerId: '  ' }, ctx()))).code).toBe('field_required');
    });

    it('is exactly once by key and rehearses without storing', async () => {
      const first = await deals.createDeal({ customerId }, ctx({ idempotencyKey: 'k1' }));
      const again = await deals.createDeal({ customerId }, ctx({ idempotencyKey: 'k1' }));
      expect(again.deal?.id).toBe(first.deal?.id);
      expect(again.meta?.replayed).toBe(true);
      const dry = await deals.createDeal({ customerId }, ctx({ dryRun: true }));
      expect(dry.meta?.rehearsal?.effects.map((effect) => effect.action)).toEqual([
        'create',
        'create',
        'event',
      ]);
      const page = await deals.listDeals({}, ctx());
      expect(page.items).toHaveLength(1);
    });
  });

  describe('advanceDeal and loseDeal', () => {
    it('follows the declared table for every stage and trigger', async () => {
      const reach = async (stage: DealStage) => {
        const deal = await newDeal();
        for (const trigger of pathTo(DEAL_STAGE_MACHINE, DEAL_STAGE_MACHINE.legalTriggers, stage))
          await fireThroughSeam(deal.id, trigger, { reason: 'r' });
        return deal.id;
      };
      for (const stage of DEAL_STAGES) {
        for (const trigger of ADVANCE_TRIGGERS) {
          const id = await reach(stage);
          const to = DEAL_STAGE_MACHINE.destination(trigger);
          if (to === stage || DEAL_STAGE_MACHINE.canFire(stage, trigger)) {
            const { deal, meta } = await deals.advanceDeal({ id, trigger }, ctx());
            expect([stage, trigger, deal?.stage, meta?.replayed]).toEqual([stage, trigger, to, to === stage]);
          } else {
            const error = await refusal(deals.advanceDeal({ id, trigger }, ctx()));
            expect([stage, trigger, error.code, error.extras['legalTriggers']]).toEqual([
              stage,
              trigger,
              'conflict',
              DEAL_STAGE_MACHINE.legalTriggers(stage),
            ]);
          }
        }
      }
    });

    it('refuses lose through advance, pointing at the lose call', async () => {
      const deal = await newDeal();
      const error = await refusal(deals.advanceDeal({ id: deal.id, trigger: 'lose' }, ctx()));
      expect(error.code).toBe('field_invalid_enum');
      expect(error.message).toMatch(new RegExp(`/deals/${deal.id}/lose`));
    });

    it('a replayed move stores and emits nothing', async () => {
      const deal = await newDeal();
      await deals.advanceDeal({ id: deal.id, trigger: 'win' }, ctx());
      const before = (await outboxEvents(t.store)).length;
      const again = await deals.advanceDeal({ id: deal.id, trigger: 'win' }, ctx());
      expect(again.meta?.replayed).toBe(true);
      expect((await outboxEvents(t.store)).length).toBe(before);
      const detail = await deals.getDeal({ id: deal.id }, ctx());
      expect(detail.activity.filter((entry) => entry.trigger === 'win')).toHaveLength(1);
    });

    it('lose needs a reason, keeps the first one, and reopen clears it', async () => {
      const deal = await newDeal();
      expect((await refusal(deals.loseDeal({ id: deal.id, reason: ' ' }, ctx()))).code).toBe(
        'field_required',
      );
      expect((await refusal(deals.loseDeal({ id: deal.id, reason: 'x'.repeat(2001) }, ctx()))).code).toBe(
        'field_too_long',
      );
      const lost = await deals.loseDeal({ id: deal.id, reason: 'Chose a competitor' }, ctx());
      expect(lost.deal).toMatchObject({ stage: 'lost', reason: 'Chose a competitor', open: false });
      const again = await deals.loseDeal({ id: deal.id, reason: 'Other words' }, ctx());
      expect(again.deal?.reason).toBe('Chose a competitor');
      expect(again.meta?.replayed).toBe(true);
      const reopened = await deals.advanceDeal({ id: deal.id, trigger: 'reopen' }, ctx());
      expect(reopened.deal?.stage).toBe('lead');
      expect(reopened.deal?.reason).toBeUndefined();
      const moves = (await outboxEvents(t.store)).filter((event) => event.type === 'deal.stage_changed');
      expect(moves.map((event) => [event.data['from'], event.data['to']])).toEqual([
        ['lead', 'lost'],
        ['lost', 'lead'],
      ]);
    });

    it('refuses to lose from a stage without a lose edge, with legalTriggers', async () => {
      const deal = await newDeal();
      for (const trigger of ['win', 'schedule', 'capture'] as const) {
        await deals.advanceDeal({ id: deal.id, trigger }, ctx());
      }
      const error = await refusal(deals.loseDeal({ id: deal.id, reason: 'late' }, ctx()));
      expect(error.code).toBe('conflict');
      expect(error.extras).toMatchObject({
        stage: 'captured',
        legalTriggers: DEAL_STAGE_MACHINE.legalTriggers('captured'),
      });
    });

    it('finds no deal of another tenant', async () => {
      const deal = await newDeal();
      const error = await refusal(
        deals.advanceDeal({ id: deal.id, trigger: 'win' }, ctx({ tenantId: TENANT_B })),
      );
      expect(error.code).toBe('not_found');
    });
  });

  describe('the deal-trigger seam', () => {
    it('moves and prices a deal with a cause on its timeline and event', async () => {
      const deal = await newDeal();
      const plan = await fireThroughSeam(deal.id, 'win', {
        value: { cents: 125_000, currency: 'EUR' },
        cause: 'proposal prop_1 signed',
      });
      expect(plan).toMatchObject({ from: 'lead', to: 'won', alreadyThere: false });
      const detail = await deals.getDeal({ id: deal.id }, ctx());
      expect(detail.deal).toMatchObject({ stage: 'won', value: { cents: 125_000, currency: 'EUR' } });
      expect(detail.activity[0]).toMatchObject({ trigger: 'win', cause: 'proposal prop_1 signed' });
    });

    it('sets only the value when the deal is already at the destination, and refuses another currency', async () => {
      const deal = await newDeal();
      await fireThroughSeam(deal.id, 'win');
      const priced = await fireThroughSeam(deal.id, 'win', { value: { cents: 500, currency: 'EUR' } });
      expect(priced.alreadyThere).toBe(true);
      expect(priced.deal.value).toEqual({ cents: 500, currency: 'EUR' });
      const types = (await outboxEvents(t.store)).map((event) => event.type);
      expect(types).toContain('deal.value_changed');
      const error = await refusal(
        planDealTrigger(t.store, ctx(), {
          dealId: deal.id,
          trigger: 'win',
          value: { cents: 1, currency: 'USD' },
        }),
      );
      expect(error.code).toBe('conflict');
    });
  });

  describe('listDeals', () => {
    it('filters by stage, customer and open; stage counts and open value cover the whole tenant', async () => {
      const other = (await t.crm.createCustomer({ name: 'Other' }, ctx())).customer?.id ?? '';
      const won = await newDeal();
      await fireThroughSeam(won.id, 'win', { value: { cents: 10_000, currency: 'EUR' } });
      const invoiced = await newDeal();
      await fireThroughSeam(invoiced.id, 'win', { value: { cents: 40_000, currency: 'EUR' } });
      await fireThroughSeam(invoiced.id, 'invoice');
      const lost = await newDeal();
      await fireThroughSeam(lost.id, 'win', { value: { cents: 7_000, currency: 'EUR' } });
      await fireThroughSeam(lost.id, 'lose', { reason: 'gone' });
      const elsewhere = (await deals.createDeal({ customerId: other }, ctx())).deal;

      const page = await deals.listDeals({}, ctx());
      expect(page.pipeline).toEqual({
        stageCounts: {
          ...Object.fromEntries(DEAL_STAGES.map((s) => [s, 0])),
          won: 1,
          invoiced: 1,
          lost: 1,
          lead: 1,
        },
        // Only open deals count: the invoiced and the lost deal's values are left out.
        openValue: { cents: 10_000, currency: 'EUR' },
        openCount: 2,
      });
      const open = await deals.listDeals({ open: true }, ctx());
      expect(open.items.map((d) => d.id).sort()).toEqual([won.id, elsewhere?.id].sort());
      const closed = await deals.listDeals({ open: false }, ctx());
      expect(closed.items.map((d) => d.id).sort()).toEqual([invoiced.id, lost.id].sort());
      const byCustomer = await deals.listDeals({ customerId: other }, ctx());
      expect(byCustomer.items.map((d) => d.id)).toEqual([elsewhere?.id]);
      expect(byCustomer.pipeline).toEqual(page.pipeline);
      expect((await deals.listDeals({ stage: 'won', open: false }, ctx())).items).toEqual([]);
      expect((await deals.listDeals({}, ctx({ tenantId: TENANT_B }))).items).toEqual([]);
    });

    it('answers itemsAsJson with the JSON of exactly what items decode to, the pipeline beside it', async () => {
      const won = await newDeal();
      await fireThroughSeam(won.id, 'win', { value: { cents: 10_000, currency: 'EUR' } });
      for (let i = 0; i < 3; i++) await newDeal();
      const pages = await pagesBothWays((page) => deals.listDeals({ page }, ctx()), dealsProto.Deal);
      expect(pages).toHaveLength(2);
      for (const page of pages) expect(page.json).toEqual(page.items);
      const json = await deals.listDeals({ page: { cursor: '', limit: 2, itemsAsJson: true } }, ctx());
      expect(json.pipeline).toEqual((await deals.listDeals({}, ctx())).pipeline);
    });
  });
});

describe('customerDeals (the deal side of the customer read)', () => {
  let t: TestCrm;
  beforeEach(async () => {
    t = await openTestCrm();
  });
  afterEach(() => t.close());

  it("lists the customer's deals and sums the open and the won values from the machine's stage sets", async () => {
    const deals = createDealHandlers(t.store);
    const customerId = (await t.crm.createCustomer({ name: 'Rollup Ltd' }, ctx())).customer?.id ?? '';
    const other = (await t.crm.createCustomer({ name: 'Someone else' }, ctx())).customer?.id ?? '';
    const priced = async (forCustomer: string, cents: number, triggers: DealTrigger[]) => {
      const deal = (await deals.createDeal({ customerId: forCustomer }, ctx())).deal;
      const value = { cents, currency: 'EUR' };
      for (const [i, trigger] of triggers.entries()) {
        // The first move prices the deal, as a signed proposal does.
        const plan = await planDealTrigger(t.store, ctx(), {
          dealId: deal?.id ?? '',
          trigger,
          reason: 'r',
          ...(i === 0 ? { value } : {}),
        });
        await t.store.commit(TENANT_A, plan.ops);
      }
      return deal?.id ?? '';
    };
    const sent = await priced(customerId, 1_000, ['send_proposal']); // open, not won
    const scheduled = await priced(customerId, 20_000, ['win', 'schedule']); // open and won
    const invoiced = await priced(customerId, 300_000, ['win', 'invoice']); // won, closed
    await priced(customerId, 4_000_000, ['win', 'lose']); // lost: neither
    await priced(other, 50_000_000, ['win']); // another customer's
    const unpriced = (await deals.createDeal({ customerId }, ctx())).deal?.id;

    const summary = await customerDeals(t.store, TENANT_A, customerId, 'EUR');
    expect(summary.openDealsCents).toBe(1_000 + 20_000);
    expect(summary.wonCents).toBe(20_000 + 300_000);
    expect(summary.related).toHaveLength(5);
    expect(summary.related).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: unpriced,
          kind: 'deal',
          status: 'lead',
          value: { cents: 0, currency: 'EUR' },
        }),
        expect.objectContaining({
          id: scheduled,
          status: 'scheduled',
          value: { cents: 20_000, currency: 'EUR' },
        }),
      ]),
    );
    expect(summary.related.map((record) => record.id)).toEqual(expect.arrayContaining([sent, invoiced]));
    expect((await customerDeals(t.store, TENANT_B, customerId, 'EUR')).related).toEqual([]);
  });
});

describe('docs/decisions.md', () => {
  /** The table rows as the declared machine gives them, cells trimmed (prettier pads them). */
  const declared = DEAL_STAGE_MACHINE.triggerNames.map((trigger) => {
    const { from, to } = DEAL_STAGE_MACHINE.triggers[trigger];
    const byOwnCall = (DEAL_STAGE_MACHINE.notByAdvance as readonly string[]).includes(trigger);
    return [trigger, from.join(', '), to, `POST /deals/:id/${byOwnCall ? trigger : 'advance'}`];
  });

  it('shows the deal stage table exactly as the machine declares it', () => {
    const rows = decisionsTableRows('## Deals, lead conversion and qualification');
    expect(rows).toEqual(declared);
  });
});
