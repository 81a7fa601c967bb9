// Deals through HTTP: spec Deal, Deal stage and endpoint rows 19–23. The stage-machine cases are
// generated from the declared table (contracts), so a change to the table changes these tests.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ADVANCE_TRIGGERS,
  DEAL_LOSE_REASON_MAX,
  DEAL_STAGE_MACHINE,
  DEAL_STAGES,
  type DealStage,
  type DealTrigger,
} from '@fieldops/contracts';
import { pathTo } from '@fieldops/contracts/testing';
import {
  eventually,
  httpClient,
  startTestPlatform,
  type Body,
  type Client,
  type TestPlatform,
} from './support/harness.ts';

let platform: TestPlatform;
let api: Client;
let customerId: string;

type Deal = Body & { id: string; stage: DealStage; value: { cents: number; currency: string } };
const deal = (reply: { body: Body }) => reply.body.deal as Deal;

/** A tenant whose persisted currency is GBP, with a Manager token. */
async function gbpTenant(platform: TestPlatform): Promise<Client> {
  const created = await platform.admin.post('/tenants', { name: 'Deals Co', currency: 'GBP' });
  const tenantId = (created.body.tenant as { id: string }).id;
  const issued = await platform.admin.post(`/tenants/${tenantId}/tokens`, { role: 'Manager' });
  return httpClient(`${platform.url}/api/v1`, (issued.body.token as { secret: string }).secret);
}

beforeAll(async () => {
  platform = await startTestPlatform();
  api = await gbpTenant(platform);
  customerId = ((await api.post('/customers', { name: 'Pipeline Ltd' })).body.customer as Body).id as string;
});
afterAll(() => platform.stop());

const newDeal = async (body: Body = {}): Promise<Deal> => {
  const reply = await api.post('/deals', { customerId, ...body });
  expect(reply.status).toBe(201);
  return deal(reply);
};

const fire = (id: string, trigger: DealTrigger) =>
  trigger === 'lose'
    ? api.post(`/deals/${id}/lose`, { reason: 'Went with another pilot' })
    : api.post(`/deals/${id}/advance`, { trigger });

async function dealAt(stage: DealStage): Promise<Deal> {
  const created = await newDeal();
  for (const trigger of pathTo(DEAL_STAGE_MACHINE, DEAL_STAGE_MACHINE.legalTriggers, stage))
    expect((await fire(created.id, trigger)).status).toBe(200);
  const read = await api.get(`/deals/${created.id}`);
  expect(deal(read).stage).toBe(stage);
  return deal(read);
}

describe('POST /deals', () => {
  it("creates an unpriced deal at stage lead, valued zero in the tenant's persisted currency", async () => {
    const reply = await api.post('/deals', { customerId, contactId: 'con_1', expectedCloseAt: '2026-12-31' });
    expect(reply.status).toBe(201);
    expect(deal(reply)).toMatchObject({
      customerId,
      contactId: 'con_1',
      expectedCloseAt: '2026-12-31',
      stage: 'lead',
      value: { cents: 0, currency: 'GBP' },
      open: true,
    });
    expect(deal(reply).id).toMatch(/^deal_/);
  });

  it.each(['amount', 'currency', 'totals', 'tax', 'fees', 'balances', 'status', 'stripePaymentIntentId'])(
    'refuses %s as an unknown field and creates nothing',
    async (field) => {
      const before = await api.get(`/deals?customerId=${customerId}`);
      const reply = await api.post('/deals', { customerId, [field]: field === 'currency' ? 'USD' : 100 });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ ok: false, code: 'unknown_field', field, retryable: false });
      const after = await api.get(`/deals?customerId=${customerId}`);
      expect(after.body.items).toEqual(before.body.items);
    },
  );

  it('answers 404 for a customer that does not exist, or belongs to another tenant', async () => {
    const missing = await api.post('/deals', { customerId: 'cus_missing' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    const other = await platform.tenant('Other Co');
    const theirs = (await other.api.post('/customers', { name: 'Not yours' })).body.customer as Body;
    const foreign = await api.post('/deals', { customerId: theirs.id });
    expect(foreign.status).toBe(404);
  });

  it.each([
    [{}, 'field_required', 'customerId'],
    [{ customerId: '' }, 'field_required', 'customerId'],
    [{ customerId: 7 }, 'field_invalid', 'customerId'],
    [{ customerId: 'cus_x', expectedCloseAt: 'next week' }, 'field_invalid', 'expectedCloseAt'],
  ])('refuses %j with %s', async (body, code, field) => {
    const reply = await api.post('/deals', body);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code, field });
  });

  it('replays a keyed create (200, replayed) and rehearses a dry run without creating', async () => {
    const first = await api.post('/deals', { customerId, opId: 'deal-key-1' });
    const again = await api.post('/deals', { customerId }, { 'idempotency-key': 'deal-key-1' });
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect(deal(again).id).toBe(deal(first).id);

    const counted = async () =>
      ((await api.get('/deals')).body.pipeline as { stageCounts: Record<string, number> }).stageCounts.lead;
    const before = await counted();
    const dry = await api.post('/deals', { customerId }, { 'x-service-dry-run': '1' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, applied: false });
    expect(dry.body.willDo).toMatch(/unpriced deal/);
    expect(await counted()).toBe(before);
  });
});

describe('GET /deals', () => {
  it("filters by stage, customer and open, with the tenant's stage counts and open value alongside", async () => {
    const other = ((await api.post('/customers', { name: 'Filter Farms' })).body.customer as Body)
      .id as string;
    const mine = await api.post('/deals', { customerId: other });
    const lostOne = await api.post('/deals', { customerId: other });
    await api.post(`/deals/${deal(lostOne).id}/lose`, { reason: 'Budget cut' });

    const byCustomer = await api.get(`/deals?customerId=${other}`);
    expect((byCustomer.body.items as Deal[]).map((d) => d.id).sort()).toEqual(
      [deal(mine).id, deal(lostOne).id].sort(),
    );
    const openOnly = await api.get(`/deals?customerId=${other}&open=true`);
    expect((openOnly.body.items as Deal[]).map((d) => d.id)).toEqual([deal(mine).id]);
    const closedOnly = await api.get(`/deals?customerId=${other}&open=false`);
    expect((closedOnly.body.items as Deal[]).map((d) => d.id)).toEqual([deal(lostOne).id]);
    const lost = await api.get(`/deals?stage=lost&customerId=${other}`);
    expect((lost.body.items as Deal[]).map((d) => d.id)).toEqual([deal(lostOne).id]);
    expect(await api.get(`/deals?stage=lost&open=true&customerId=${other}`)).toMatchObject({
      body: { items: [] },
    });

    const all = await api.get('/deals?limit=1000');
    const pipeline = all.body.pipeline as {
      stageCounts: Record<string, number>;
      openValue: { cents: number; currency: string };
      openCount: number;
    };
    expect(Object.keys(pipeline.stageCounts).sort()).toEqual([...DEAL_STAGES].sort());
    // The counts cover the whole tenant whatever the filter: the filtered page carries the same.
    expect(byCustomer.body.pipeline).toEqual(pipeline);
    expect(pipeline.stageCounts.lost).toBeGreaterThanOrEqual(1);
    const openCount = DEAL_STAGE_MACHINE.open.reduce(
      (sum, stage) => sum + (pipeline.stageCounts[stage] ?? 0),
      0,
    );
    expect(pipeline.openCount).toBe(openCount);
    expect(pipeline.openValue).toEqual({ cents: 0, currency: 'GBP' }); // nothing is priced yet
    expect(all.body).toMatchObject({ limit: 100, limitClamped: true });
  });

  it('pages newest first with a cursor', async () => {
    const fresh = ((await api.post('/customers', { name: 'Paging Plc' })).body.customer as Body).id as string;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(deal(await api.post('/deals', { customerId: fresh })).id);
    const first = await api.get(`/deals?customerId=${fresh}&limit=2`);
    const second = await api.get(
      `/deals?customerId=${fresh}&limit=2&cursor=${String(first.body.nextCursor)}`,
    );
    const seen = [...(first.body.items as Deal[]), ...(second.body.items as Deal[])].map((d) => d.id);
    expect(seen).toEqual([...ids].reverse());
    expect(second.body.nextCursor).toBeNull();
  });

  it.each([
    ['stage=won_big', 'field_invalid_enum', 'stage'],
    ['open=yes', 'field_invalid', 'open'],
    ['amount=5', 'unknown_field', 'amount'],
  ])('refuses ?%s with %s', async (query, code, field) => {
    const reply = await api.get(`/deals?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code, field });
  });
});

describe('GET /deals/:id', () => {
  it('reads the deal with its activity timeline (newest first) and its legal triggers', async () => {
    const created = await newDeal();
    await api.post(`/deals/${created.id}/advance`, { trigger: 'send_proposal' });
    const reply = await api.get(`/deals/${created.id}`);
    expect(reply.status).toBe(200);
    expect(deal(reply).stage).toBe('proposal_sent');
    expect(reply.body.legalTriggers).toEqual(DEAL_STAGE_MACHINE.legalTriggers('proposal_sent'));
    const activity = reply.body.activity as Body[];
    expect(activity.map((entry) => entry.action)).toEqual(['stage_changed', 'created']);
    expect(activity[0]).toMatchObject({
      trigger: 'send_proposal',
      changes: expect.arrayContaining([{ field: 'stage', from: 'lead', to: 'proposal_sent' }]),
    });
    expect(typeof activity[0]?.actor).toBe('string');
  });

  it('answers 404 for an unknown deal', async () => {
    const reply = await api.get('/deals/deal_missing');
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe('not_found');
  });
});

describe('POST /deals/:id/advance, generated from the declared machine', () => {
  const cases = DEAL_STAGES.flatMap((stage) => ADVANCE_TRIGGERS.map((trigger) => [stage, trigger] as const));

  it.each(cases)('from %s, trigger %s', async (stage, trigger) => {
    const at = await dealAt(stage);
    const reply = await api.post(`/deals/${at.id}/advance`, { trigger });
    const to = DEAL_STAGE_MACHINE.destination(trigger);
    if (to === stage) {
      expect(reply.status).toBe(200);
      expect(reply.body.replayed).toBe(true);
      expect(deal(reply).stage).toBe(stage);
    } else if (DEAL_STAGE_MACHINE.canFire(stage, trigger)) {
      expect(reply.status).toBe(200);
      expect(reply.body.replayed).toBeUndefined();
      expect(deal(reply).stage).toBe(to);
    } else {
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({
        code: 'conflict',
        legalTriggers: DEAL_STAGE_MACHINE.legalTriggers(stage),
      });
      expect(deal(await api.get(`/deals/${at.id}`)).stage).toBe(stage);
    }
  });

  it('lists each legal move with the operation that makes it, and every one of them works', async () => {
    // From proposal_sent, deliver is illegal; the 409 names lose with POST /deals/{id}/lose.
    for (const move of ['win', 'lose'] as const) {
      const at = await dealAt('proposal_sent');
      const refused = await api.post(`/deals/${at.id}/advance`, { trigger: 'deliver' });
      expect(refused.status).toBe(409);
      const moves = refused.body.legalMoves as {
        trigger: string;
        method: string;
        path: string;
        body?: object;
      }[];
      expect(moves.map((m) => m.trigger)).toEqual(DEAL_STAGE_MACHINE.legalTriggers('proposal_sent'));
      expect(moves).toContainEqual({
        trigger: 'lose',
        operationId: 'loseDeal',
        method: 'POST',
        path: '/api/v1/deals/{id}/lose',
      });
      const chosen = moves.find((m) => m.trigger === move);
      if (!chosen) throw new Error(`no legal move ${move}`);
      const path = chosen.path.replace('/api/v1', '').replace('{id}', at.id) as `/deals/${string}`;
      // The move's body selects it; lose also needs its own reason.
      const reply = await api.post(path, {
        ...chosen.body,
        ...(move === 'lose' ? { reason: 'Budget cut' } : {}),
      });
      expect(reply.status).toBe(200);
      expect(deal(reply).stage).toBe(DEAL_STAGE_MACHINE.destination(move));
    }
  });

  it('never accepts lose, whatever the stage: losing needs a reason', async () => {
    const created = await newDeal();
    const reply = await api.post(`/deals/${created.id}/advance`, { trigger: 'lose' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'field_invalid_enum', field: 'trigger' });
    expect(reply.body.allowed).not.toContain('lose');
    expect(deal(await api.get(`/deals/${created.id}`)).stage).toBe('lead');
  });

  it.each([
    [{}, 'field_required'],
    [{ trigger: 'teleport' }, 'field_invalid_enum'],
    [{ trigger: 'win', reason: 'x' }, 'unknown_field'],
  ])('refuses %j with %s', async (body, code) => {
    const created = await newDeal();
    const reply = await api.post(`/deals/${created.id}/advance`, body);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe(code);
  });

  it('answers 404 for an unknown deal and rehearses a move without making it', async () => {
    expect((await api.post('/deals/deal_missing/advance', { trigger: 'win' })).status).toBe(404);
    const created = await newDeal();
    const dry = await api.post(
      `/deals/${created.id}/advance`,
      { trigger: 'win' },
      { 'x-service-dry-run': '1' },
    );
    expect(dry.body).toMatchObject({ dryRun: true, applied: false, deal: { stage: 'won' } });
    expect(dry.body.willDo).toMatch(/lead to won/);
    expect(deal(await api.get(`/deals/${created.id}`)).stage).toBe('lead');
  });

  it('records every move on the event log (audit trail) against the deal', async () => {
    const created = await newDeal();
    await api.post(`/deals/${created.id}/advance`, { trigger: 'win' });
    const actions = await eventually(async () => {
      const items = (await api.get(`/audit?resourceId=${created.id}`)).body.items as Body[] | undefined;
      const found = (items ?? []).map((entry) => entry.action);
      return found.includes('deal.stage_changed') ? found : undefined;
    });
    expect(actions).toEqual(expect.arrayContaining(['deal.created', 'deal.stage_changed']));
  });
});

describe('POST /deals/:id/lose', () => {
  const loseFrom = DEAL_STAGE_MACHINE.triggers.lose.from as readonly DealStage[];
  const withoutLoseEdge = DEAL_STAGES.filter((stage) => stage !== 'lost' && !loseFrom.includes(stage));

  it.each([...loseFrom])('loses a deal at %s with the reason stored on it', async (stage) => {
    const at = await dealAt(stage);
    const reply = await api.post(`/deals/${at.id}/lose`, { reason: '  Chose a cheaper quote  ' });
    expect(reply.status).toBe(200);
    expect(deal(reply)).toMatchObject({ stage: 'lost', reason: 'Chose a cheaper quote', open: false });
    const read = await api.get(`/deals/${at.id}`);
    expect((read.body.activity as Body[])[0]).toMatchObject({
      trigger: 'lose',
      note: 'Chose a cheaper quote',
    });
  });

  it.each(withoutLoseEdge)(
    'refuses to lose a deal at %s (409 with DEAL_STAGE_MACHINE.legalTriggers)',
    async (stage) => {
      const at = await dealAt(stage);
      const reply = await api.post(`/deals/${at.id}/lose`, { reason: 'Too late' });
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({
        code: 'conflict',
        legalTriggers: DEAL_STAGE_MACHINE.legalTriggers(stage),
      });
      expect(deal(await api.get(`/deals/${at.id}`)).stage).toBe(stage);
    },
  );

  it('is idempotent when already lost: 200 replayed, the first reason stays', async () => {
    const created = await newDeal();
    await api.post(`/deals/${created.id}/lose`, { reason: 'First reason' });
    const again = await api.post(`/deals/${created.id}/lose`, { reason: 'Second reason' });
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect(deal(again)).toMatchObject({ stage: 'lost', reason: 'First reason' });
    const activity = (await api.get(`/deals/${created.id}`)).body.activity as Body[];
    expect(activity.filter((entry) => entry.trigger === 'lose')).toHaveLength(1);
  });

  it('is reversible: reopen takes a lost deal back to the start of the pipeline and clears the reason', async () => {
    const created = await newDeal();
    await api.post(`/deals/${created.id}/lose`, { reason: 'Paused' });
    const reopened = await api.post(`/deals/${created.id}/advance`, { trigger: 'reopen' });
    expect(reopened.status).toBe(200);
    expect(deal(reopened)).toMatchObject({ stage: DEAL_STAGE_MACHINE.triggers.reopen.to, open: true });
    expect(deal(reopened).reason).toBeUndefined();
  });

  it.each([
    [{}, 'field_required'],
    [{ reason: '   ' }, 'field_required'],
    [{ reason: 'r'.repeat(DEAL_LOSE_REASON_MAX + 1) }, 'field_too_long'],
    [{ reason: 'ok', stage: 'lost' }, 'unknown_field'],
  ])('refuses %j with %s and changes nothing', async (body, code) => {
    const created = await newDeal();
    const reply = await api.post(`/deals/${created.id}/lose`, body);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code, field: expect.any(String) });
    expect(deal(await api.get(`/deals/${created.id}`)).stage).toBe('lead');
  });

  it('answers 404 for an unknown deal', async () => {
    expect((await api.post('/deals/deal_missing/lose', { reason: 'x' })).status).toBe(404);
  });
});

describe('the declared machine', () => {
  it('is published on the advance and lose operations as x-state-machine', async () => {
    const doc = (await platform.anonymous.get('/openapi.json')).body;
    const paths = doc.paths as Record<string, Record<string, Body>>;
    const published = { field: 'stage', moves: DEAL_STAGE_MACHINE.moves };
    expect(paths['/api/v1/deals/{id}/advance']?.post?.['x-state-machine']).toEqual(published);
    expect(paths['/api/v1/deals/{id}/lose']?.post?.['x-state-machine']).toEqual(published);
  });
});
