// Proposals through HTTP: ENDPOINTS rows 50–54 and the spec's confirmation, budget and If-Match
// rules. The status-machine cases are generated from the declared table (contracts), so a change
// to the table changes these tests. The customer's acts (view, sign, decline) go through the link
// the send email carries, over the crm service's client-link RPCs, as the client pages call them.
import { describe, expect, it } from '@jest/globals';
import {
  PROPOSAL_STATUS_MACHINE,
  PROPOSAL_STATUSES,
  type ProposalStatus,
  type ProposalTrigger,
} from '@fieldops/contracts';
import { pathTo } from '@fieldops/contracts/testing';
import { confirmed, expectDeclaredMove, startBillingTenant } from './support/billing.ts';
import { eventually, type Body, type Client } from './support/harness.ts';

const EMAILS_PER_HOUR = 5;

type Proposal = Body & {
  id: string;
  status: ProposalStatus;
  etag: string;
  totals: { subtotalCents: number; taxCents: number; totalCents: number; currency: string };
};
const proposal = (reply: { body: Body }) => reply.body.proposal as Proposal;

const LINES = [
  { description: 'Roof survey flight', quantity: 1, unitPriceCents: 45000, taxRateBps: 2000 },
  { description: 'Orthomosaic processing', quantity: 2.5, unitPriceCents: 1999 },
];
const inAWeek = () => new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();

const { side, tenantId, api, customerId, freshApi } = await startBillingTenant(
  EMAILS_PER_HOUR,
  'Proposals Co',
  {
    name: 'Dana Roofs',
    email: 'dana@roofs.example',
  },
);

const draft = async (body: Body = {}, as: Client = api): Promise<Proposal> => {
  const reply = await as.post('/proposals', { customerId, title: 'Roof survey', lines: LINES, ...body });
  expect(reply.status).toBe(201);
  return proposal(reply);
};

const send = async (id: string, as: Client) => {
  const { first, final } = await confirmed(as, `/proposals/${id}/send`);
  expect(first.body.code).toBe('confirmation_required');
  expect(final.status).toBe(200);
  return proposal(final);
};

describe('POST /proposals', () => {
  it('drafts a priced proposal; the server computes every amount and total', async () => {
    const reply = await api.post('/proposals', { customerId, title: 'Roof survey', lines: LINES });
    expect(reply.status).toBe(201);
    const p = proposal(reply);
    expect(p.id).toMatch(/^prop_/);
    expect(p.status).toBe('draft');
    // 45000 + 20 % tax; 2.5 × 1999 = 4997.5 → 4998 (half up, once per line).
    expect(p.lines).toEqual([
      expect.objectContaining({ amountCents: 45000, taxCents: 9000, taxRateBps: 2000 }),
      expect.objectContaining({ amountCents: 4998, taxCents: 0, taxRateBps: 0 }),
    ]);
    expect(p.totals).toEqual({ subtotalCents: 49998, taxCents: 9000, totalCents: 58998, currency: 'USD' });
    const read = await api.get(`/proposals/${p.id}`);
    expect(read.body.legalTriggers).toEqual(PROPOSAL_STATUS_MACHINE.legalTriggers('draft'));
    expect(read.headers.get('etag')).toBe(`"${p.etag}"`);
  });

  it('drafts for a deal: the deal names the customer, and the deal does not move yet', async () => {
    const deal = (await api.post('/deals', { customerId })).body.deal as Body;
    const p = await draft({ customerId: undefined, dealId: deal.id });
    expect(p).toMatchObject({ dealId: deal.id, customerId });
    expect(((await api.get(`/deals/${deal.id as string}`)).body.deal as Body).stage).toBe('lead');
  });

  it.each([['totals'], ['totalCents'], ['amount'], ['currency'], ['status']])(
    'refuses the money or state field %s as unknown (400 unknown_field)',
    async (field) => {
      const reply = await api.post('/proposals', { customerId, title: 'X', lines: LINES, [field]: 1 });
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe('unknown_field');
    },
  );

  it('refuses an amount sent on a line (unknown_field): line amounts are computed', async () => {
    const lines = [{ ...LINES[0], amountCents: 1 }];
    const reply = await api.post('/proposals', { customerId, title: 'X', lines });
    expect(reply.body.code).toBe('unknown_field');
  });

  it('states each input error with the spec code and stores nothing', async () => {
    const before = ((await api.get('/proposals?limit=100')).body.items as Body[]).length;
    const cases: [Body | string, number, string][] = [
      ['{not json', 400, 'invalid_json'],
      [{ customerId, lines: LINES }, 400, 'field_required'],
      [{ title: 'No owner', lines: LINES }, 400, 'field_required'],
      [{ customerId, title: 'X', lines: [{ ...LINES[0], quantity: 0 }] }, 400, 'field_invalid'],
      [{ customerId, title: 'X', lines: [{ ...LINES[0], unitPriceCents: 1.5 }] }, 400, 'field_invalid'],
      [{ customerId, title: 'X', validUntil: '2001-01-01T00:00:00Z' }, 400, 'field_invalid'],
      [{ customerId, title: 'x'.repeat(201) }, 400, 'field_too_long'],
      [{ customerId: 'cus_missing', title: 'X' }, 404, 'not_found'],
      [{ dealId: 'deal_missing', title: 'X' }, 404, 'not_found'],
    ];
    for (const [body, status, code] of cases) {
      const reply = await api.post('/proposals', body);
      expect([reply.status, reply.body.code, body]).toEqual([status, code, body]);
    }
    expect(((await api.get('/proposals?limit=100')).body.items as Body[]).length).toBe(before);
  });

  it('refuses a deal of another customer named with a customer (field_invalid)', async () => {
    const other = (await api.post('/customers', { name: 'Other' })).body.customer as Body;
    const deal = (await api.post('/deals', { customerId: other.id })).body.deal as Body;
    const reply = await api.post('/proposals', { customerId, dealId: deal.id, title: 'X' });
    expect([reply.status, reply.body.code]).toEqual([400, 'field_invalid']);
  });

  it('rehearses with x-service-dry-run: willDo and totalCents, nothing stored', async () => {
    const reply = await api.post(
      '/proposals',
      { customerId, title: 'Dry', lines: LINES },
      { 'x-service-dry-run': '1' },
    );
    expect(reply.body).toMatchObject({ dryRun: true, applied: false, details: { totalCents: 58998 } });
    const id = proposal(reply).id;
    expect((await api.get(`/proposals/${id}`)).status).toBe(404);
  });

  it('replays a keyed create: same proposal, 200, replayed true', async () => {
    const body = { customerId, title: 'Keyed', lines: LINES, opId: 'prop-op-1' };
    const first = await api.post('/proposals', body);
    const again = await api.post('/proposals', body);
    expect([first.status, again.status, again.body.replayed]).toEqual([201, 200, true]);
    expect(proposal(again).id).toBe(proposal(first).id);
  });
});

describe('GET /proposals', () => {
  it('lists newest first, filtered by status, customer and deal; bad filters refused', async () => {
    const other = (await api.post('/customers', { name: 'Filter Co' })).body.customer as Body;
    const mine = await draft({ customerId: other.id, title: 'Filtered' });
    const list = await api.get(`/proposals?customerId=${other.id as string}&status=draft`);
    expect((list.body.items as Proposal[]).map((p) => p.id)).toEqual([mine.id]);
    expect((await api.get('/proposals?status=pending')).body.code).toBe('field_invalid_enum');
    expect((await api.get('/proposals?colour=red')).body.code).toBe('unknown_field');
    expect((await api.get('/proposals/prop_missing')).status).toBe(404);
  });
});

describe('a lapsed offer', () => {
  it('reads and lists as expired once validUntil passes, before anyone records it', async () => {
    const p = await draft({ validUntil: new Date(Date.now() + 1200).toISOString() });
    await send(p.id, await freshApi());
    await new Promise((resolve) => setTimeout(resolve, 1300));
    const read = await api.get(`/proposals/${p.id}`);
    expect([proposal(read).status, read.body.legalTriggers]).toEqual(['expired', []]);
    const ids = async (status: string) =>
      ((await api.get(`/proposals?status=${status}&limit=100`)).body.items as Proposal[]).map((x) => x.id);
    expect(await ids('expired')).toContain(p.id);
    expect(await ids('sent')).not.toContain(p.id);
  });
});

describe('PATCH /proposals/:id', () => {
  it('amends a draft with If-Match and recomputes the totals from new lines', async () => {
    const p = await draft();
    const reply = await api.patch(
      `/proposals/${p.id}`,
      { lines: [{ description: 'Survey', quantity: 3, unitPriceCents: 100 }] },
      { 'if-match': p.etag },
    );
    expect(reply.status).toBe(200);
    expect(proposal(reply).totals).toMatchObject({ subtotalCents: 300, taxCents: 0, totalCents: 300 });
    expect(proposal(reply).etag).not.toBe(p.etag);
  });

  it('answers 428 without If-Match and 409 with the current record on a stale one', async () => {
    const p = await draft();
    const missing = await api.patch(`/proposals/${p.id}`, { title: 'New' });
    expect([missing.status, missing.body.code]).toEqual([428, 'precondition_required']);
    await api.patch(`/proposals/${p.id}`, { title: 'Newer' }, { 'if-match': p.etag });
    const stale = await api.patch(`/proposals/${p.id}`, { title: 'Lost update' }, { 'if-match': p.etag });
    expect([stale.status, stale.body.code]).toEqual([409, 'conflict']);
    expect((stale.body.current as Body).title).toBe('Newer');
  });

  it('refuses money fields, an empty body and amending a sent proposal', async () => {
    const p = await draft();
    const money = await api.patch(`/proposals/${p.id}`, { totals: { totalCents: 1 } }, { 'if-match': '*' });
    expect(money.body.code).toBe('unknown_field');
    const empty = await api.patch(`/proposals/${p.id}`, {}, { 'if-match': '*' });
    expect(empty.body.code).toBe('invalid_body');
    await send(p.id, await freshApi());
    const late = await api.patch(`/proposals/${p.id}`, { title: 'Too late' }, { 'if-match': '*' });
    expect([late.status, late.body.code]).toEqual([409, 'conflict']);
    expect(late.body.legalTriggers).toEqual(PROPOSAL_STATUS_MACHINE.legalTriggers('sent'));
  });
});

describe('POST /proposals/:id/send (two-phase confirmation)', () => {
  it('first answers 409 with willDo, then the identical request with the token sends it', async () => {
    const as = await freshApi();
    const deal = (await api.post('/deals', { customerId })).body.deal as Body;
    const p = await draft({ dealId: deal.id });
    const first = await as.post(`/proposals/${p.id}/send`, {});
    expect([first.status, first.body.code]).toEqual([409, 'confirmation_required']);
    expect(first.body.confirmHeader).toBe('x-service-confirm');
    expect(first.body.willDo).toMatchObject({
      effect: 'irreversible',
      recipient: 'd***@roofs.example',
      totalCents: 58998,
      summary: expect.stringContaining('d***@roofs.example'),
    });
    expect(proposal(await api.get(`/proposals/${p.id}`)).status).toBe('draft');
    expect(await side.messagesAbout(tenantId, p.id)).toEqual([]);

    const done = await as.post(
      `/proposals/${p.id}/send`,
      {},
      { 'x-service-confirm': String(first.body.confirmToken) },
    );
    expect(done.status).toBe(200);
    expect(proposal(done)).toMatchObject({ status: 'sent', sentAt: expect.any(String) });
    expect(done.body.dealMove).toMatchObject({ dealId: deal.id, moved: true, toStage: 'proposal_sent' });
    const mail = await side.messagesAbout(tenantId, p.id);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to: 'dana@roofs.example', aboutKind: 'proposal', status: 'queued' });
    expect(mail[0]?.linkPath).toMatch(/^\/client\/v1\/proposal\?token=/);
  });

  it('refuses a changed body, a reused token and another token’s confirmation', async () => {
    const as = await freshApi();
    const other = await freshApi();
    const p = await draft();
    const first = await as.post(`/proposals/${p.id}/send`, {});
    const token = String(first.body.confirmToken);
    const changed = await as.post(
      `/proposals/${p.id}/send`,
      { message: 'Hi' },
      { 'x-service-confirm': token },
    );
    expect(changed.body.code).toBe('confirmation_required');
    expect(changed.body.confirmToken).not.toBe(token);
    const second = await as.post(`/proposals/${p.id}/send`, {});
    const stolen = await other.post(
      `/proposals/${p.id}/send`,
      {},
      {
        'x-service-confirm': String(second.body.confirmToken),
      },
    );
    expect(stolen.body.code).toBe('confirmation_required');
    expect(proposal(await api.get(`/proposals/${p.id}`)).status).toBe('draft');
    expect(await side.messagesAbout(tenantId, p.id)).toEqual([]);
  });

  it('sending again answers 200 replayed and queues no second email', async () => {
    const as = await freshApi();
    const p = await draft();
    await send(p.id, as);
    const { final } = await confirmed(as, `/proposals/${p.id}/send`);
    expect([final.status, final.body.replayed]).toEqual([200, true]);
    expect(await side.messagesAbout(tenantId, p.id)).toHaveLength(1);
  });

  it('refuses with 409 when there is nobody to email or nothing priced', async () => {
    const silent = (await api.post('/customers', { name: 'No Email' })).body.customer as Body;
    const noRecipient = await draft({ customerId: silent.id });
    const reply = await api.post(`/proposals/${noRecipient.id}/send`, {});
    expect([reply.status, reply.body.code]).toEqual([409, 'conflict']);
    const unpriced = await draft({ lines: [] });
    expect((await api.post(`/proposals/${unpriced.id}/send`, {})).body.code).toBe('conflict');
    expect((await api.post('/proposals/prop_missing/send', {})).status).toBe(404);
  });

  it('spends the emails budget: 429 naming emails once spent; confirmation rounds spend nothing', async () => {
    const as = await freshApi();
    const drafts = await Promise.all(Array.from({ length: EMAILS_PER_HOUR + 1 }, () => draft()));
    // Confirmation demands alone never spend.
    for (const p of drafts) await as.post(`/proposals/${p.id}/send`, {});
    for (const p of drafts.slice(0, EMAILS_PER_HOUR)) await send(p.id, as);
    const { final } = await confirmed(as, `/proposals/${drafts[EMAILS_PER_HOUR]?.id ?? ''}/send`);
    expect([final.status, final.body.code, final.body.budget]).toEqual([429, 'rate_limited', 'emails']);
    expect(Number(final.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(proposal(await api.get(`/proposals/${drafts[EMAILS_PER_HOUR]?.id ?? ''}`)).status).toBe('draft');
  });
});

describe('the customer signs through the link', () => {
  it('viewing, then signing wins the deal at the proposal total and emits proposal.signed', async () => {
    const deal = (await api.post('/deals', { customerId })).body.deal as Body;
    const p = await draft({ dealId: deal.id });
    await send(p.id, await freshApi());
    const link = await side.linkTokenOf(tenantId, p.id);
    expect(await side.open(link)).toMatchObject({ status: 'viewed', actions: ['sign', 'decline'] });
    const signed = await side.sign(link, 'Dana Roofs');
    expect(signed).toMatchObject({ status: 'signed', signature: { signerName: 'Dana Roofs' } });
    const read = proposal(await api.get(`/proposals/${p.id}`));
    expect(read).toMatchObject({
      status: 'signed',
      signature: expect.objectContaining({ signerName: 'Dana Roofs' }),
    });
    const after = (await api.get(`/deals/${deal.id as string}`)).body.deal as Body;
    expect(after).toMatchObject({ stage: 'won', value: { cents: 58998, currency: 'USD' } });
    const actions = await eventually(async () => {
      const trail = (await api.get(`/audit?resourceId=${p.id}`)).body.items as Body[];
      const found = trail.map((entry) => entry.action);
      return found.includes('proposal.signed') ? found : undefined;
    });
    expect(actions).toEqual(expect.arrayContaining(['proposal.created', 'proposal.sent', 'proposal.viewed']));
  });

  it('a tampered or withdrawn link is 404; a declined proposal can no longer be signed', async () => {
    const as = await freshApi();
    const p = await draft();
    await send(p.id, as);
    const link = await side.linkTokenOf(tenantId, p.id);
    await expect(side.open(`${link.slice(0, -2)}xx`)).rejects.toMatchObject({ code: 'not_found' });
    const declined = await side.decline(link, 'Too expensive this year');
    expect(declined).toMatchObject({
      status: 'declined',
      declineReason: 'Too expensive this year',
      actions: [],
    });
    await expect(side.sign(link)).rejects.toMatchObject({ code: 'conflict' });

    const q = await draft();
    await send(q.id, as);
    const qLink = await side.linkTokenOf(tenantId, q.id);
    expect((await api.post(`/proposals/${q.id}/withdraw`, {})).status).toBe(200);
    await expect(side.open(qLink)).rejects.toMatchObject({ code: 'not_found' });
  });
});

// ---- The declared machine, move by move -------------------------------------------------------

/** Who fires a trigger: the API (send, withdraw), the customer's link, or the clock (expire). */
async function fire(p: Proposal, trigger: ProposalTrigger, as: Client) {
  const link = () => side.linkTokenOf(tenantId, p.id);
  switch (trigger) {
    case 'send':
      return confirmed(as, `/proposals/${p.id}/send`).then(({ final }) => final);
    case 'withdraw':
      return api.post(`/proposals/${p.id}/withdraw`, {});
    case 'view':
      return side.open(await link());
    case 'sign':
      return side.sign(await link());
    case 'decline':
      return side.decline(await link(), 'No thanks');
    case 'expire':
      return new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, Date.parse(String(p.validUntil)) - Date.now() + 50)),
      );
  }
}

/** A proposal brought to `status` by the declared moves. */
async function proposalAt(status: ProposalStatus): Promise<Proposal> {
  const path = pathTo(PROPOSAL_STATUS_MACHINE, PROPOSAL_STATUS_MACHINE.legalTriggers, status);
  // A proposal headed for expiry is valid for a moment only; the clock does the rest.
  const validUntil = path.includes('expire') ? new Date(Date.now() + 1500).toISOString() : inAWeek();
  const p = await draft({ validUntil });
  const as = await freshApi();
  for (const trigger of path) await fire(p, trigger, as);
  const read = proposal(await api.get(`/proposals/${p.id}`));
  expect(read.status).toBe(status);
  return read;
}

const API_TRIGGERS = PROPOSAL_STATUS_MACHINE.triggerNames.filter(
  (t) => !(PROPOSAL_STATUS_MACHINE.byCustomer as readonly string[]).includes(t) && t !== 'expire',
) as ('send' | 'withdraw')[];

describe('the proposal status machine (generated from the declared table)', () => {
  const cases = PROPOSAL_STATUSES.flatMap((status) =>
    API_TRIGGERS.map((trigger) => [status, trigger] as const),
  );
  it.each(cases)('from %s, %s through the API', async (status, trigger) => {
    const p = await proposalAt(status);
    const reply = (await fire(p, trigger, await freshApi())) as { status: number; body: Body };
    const to = PROPOSAL_STATUS_MACHINE.triggers[trigger].to;
    await expectDeclaredMove(
      reply,
      {
        from: status,
        to,
        legal: PROPOSAL_STATUS_MACHINE.canFire(status, trigger),
        legalTriggers: PROPOSAL_STATUS_MACHINE.legalTriggers(status),
        name: 'proposal',
      },
      async () => proposal(await api.get(`/proposals/${p.id}`)).status,
    );
  });

  const customerCases = PROPOSAL_STATUSES.filter((s) => s !== 'draft' && s !== 'withdrawn').flatMap(
    (status) => (['sign', 'decline'] as const).map((trigger) => [status, trigger] as const),
  );
  it.each(customerCases)('from %s, the customer tries to %s', async (status, trigger) => {
    const p = await proposalAt(status);
    const attempt = fire(p, trigger, api);
    const to = PROPOSAL_STATUS_MACHINE.triggers[trigger].to;
    if (status === to || PROPOSAL_STATUS_MACHINE.canFire(status, trigger)) {
      await expect(attempt).resolves.toMatchObject({ status: to });
    } else {
      await expect(attempt).rejects.toMatchObject({ code: 'conflict' });
      expect(proposal(await api.get(`/proposals/${p.id}`)).status).toBe(status);
    }
  });
});
