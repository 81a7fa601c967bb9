// Invoices through HTTP: ENDPOINTS rows 55–59 and the spec's rules for them — a draft asks nobody
// for anything, issuing needs confirmation and spends the emails budget, no endpoint pays or
// refunds. Payments are recorded by the platform's own side (a member in the portal or the payment
// provider) over the crm service's RecordPayment RPC, never by an API token. The status-machine
// cases are generated from the declared table (contracts).
import { describe, expect, it } from '@jest/globals';
import {
  INVOICE_STATUS_MACHINE,
  INVOICE_STATUSES,
  type InvoiceStatus,
  type InvoiceTrigger,
} from '@fieldops/contracts';
import { pathTo } from '@fieldops/contracts/testing';
import { confirmed, expectDeclaredMove, startBillingTenant } from './support/billing.ts';
import { eventually, type Body, type Client } from './support/harness.ts';

const EMAILS_PER_HOUR = 3;

type Invoice = Body & {
  id: string;
  status: InvoiceStatus;
  etag: string;
  number?: string;
  paidCents: number;
  balanceCents: number;
  totals: { subtotalCents: number; taxCents: number; totalCents: number; currency: string };
};
const invoice = (reply: { body: Body }) => reply.body.invoice as Invoice;

const LINES = [
  { description: 'Stockpile volumetrics', quantity: 2, unitPriceCents: 30000, taxRateBps: 1000 },
];
const TOTAL = 66000;

const { side, tenantId, api, customerId, freshApi } = await startBillingTenant(
  EMAILS_PER_HOUR,
  'Invoices Co',
  {
    name: 'Quarry Ops',
    email: 'billing@quarry.example',
  },
);

const draft = async (body: Body = {}): Promise<Invoice> => {
  const reply = await api.post('/invoices', { customerId, title: 'Survey', lines: LINES, ...body });
  expect(reply.status).toBe(201);
  return invoice(reply);
};

const issue = async (id: string, as?: Client) => {
  const { first, final } = await confirmed(as ?? (await freshApi()), `/invoices/${id}/issue`);
  expect(first.body.code).toBe('confirmation_required');
  expect(final.status).toBe(200);
  return final;
};

/** A deal advanced to `won` through the deal endpoints. */
async function wonDeal(): Promise<Body> {
  const deal = (await api.post('/deals', { customerId })).body.deal as Body;
  const won = await api.post(`/deals/${deal.id as string}/advance`, { trigger: 'win' });
  expect(won.status).toBe(200);
  return won.body.deal as Body;
}

describe('POST /invoices (a draft asks nobody for anything)', () => {
  it('drafts with computed totals, no number, no email and no deal move', async () => {
    const deal = await wonDeal();
    const reply = await api.post('/invoices', { dealId: deal.id, title: 'Survey', lines: LINES });
    expect(reply.status).toBe(201);
    const inv = invoice(reply);
    expect(inv).toMatchObject({
      status: 'draft',
      customerId,
      dealId: deal.id,
      paidCents: 0,
      balanceCents: TOTAL,
    });
    expect(inv.totals).toEqual({ subtotalCents: 60000, taxCents: 6000, totalCents: TOTAL, currency: 'USD' });
    expect(inv.number).toBeUndefined();
    expect(await side.messagesAbout(tenantId, inv.id)).toEqual([]);
    expect(((await api.get(`/deals/${deal.id as string}`)).body.deal as Body).stage).toBe('won');
    const read = await api.get(`/invoices/${inv.id}`);
    expect(read.body.legalTriggers).toEqual(INVOICE_STATUS_MACHINE.legalTriggers('draft'));
  });

  it('drafts from a signed proposal with its lines, and from a deal alone with its signed proposal', async () => {
    const deal = (await api.post('/deals', { customerId })).body.deal as Body;
    const p = (await api.post('/proposals', { dealId: deal.id, title: 'Signed offer', lines: LINES })).body
      .proposal as Body;
    const unsigned = await api.post('/invoices', { proposalId: p.id });
    expect([unsigned.status, unsigned.body.code]).toEqual([409, 'conflict']);
    await confirmed(await freshApi(), `/proposals/${p.id as string}/send`);
    await side.sign(await side.linkTokenOf(tenantId, p.id as string));
    const fromProposal = invoice(await api.post('/invoices', { proposalId: p.id }));
    expect(fromProposal).toMatchObject({ proposalId: p.id, dealId: deal.id, title: 'Signed offer' });
    expect(fromProposal.totals.totalCents).toBe(TOTAL);
    const fromDeal = invoice(await api.post('/invoices', { dealId: deal.id }));
    expect(fromDeal).toMatchObject({ proposalId: p.id });
    const both = await api.post('/invoices', { proposalId: p.id, lines: LINES });
    expect(both.body.code).toBe('field_invalid');
  });

  it.each([['totals'], ['amountCents'], ['currency'], ['payments'], ['paidCents'], ['status']])(
    'refuses the money or state field %s as unknown (400 unknown_field)',
    async (field) => {
      const reply = await api.post('/invoices', { customerId, lines: LINES, [field]: 1 });
      expect([reply.status, reply.body.code]).toEqual([400, 'unknown_field']);
    },
  );

  it('states each input error with the spec code and stores nothing', async () => {
    const before = ((await api.get('/invoices?limit=100')).body.items as Body[]).length;
    const cases: [Body | string, number, string][] = [
      ['{nope', 400, 'invalid_json'],
      [{ lines: LINES }, 400, 'field_required'],
      [{ customerId, lines: [{ ...LINES[0], quantity: -1 }] }, 400, 'field_invalid'],
      [{ customerId, dueDate: '2026-02-30' }, 400, 'field_invalid'],
      [{ customerId, title: 'y'.repeat(201) }, 400, 'field_too_long'],
      [{ customerId: 'cus_missing' }, 404, 'not_found'],
      [{ proposalId: 'prop_missing' }, 404, 'not_found'],
    ];
    for (const [body, status, code] of cases) {
      const reply = await api.post('/invoices', body);
      expect([reply.status, reply.body.code, body]).toEqual([status, code, body]);
    }
    expect(((await api.get('/invoices?limit=100')).body.items as Body[]).length).toBe(before);
  });

  it('lists with filters; unknown filters and values refused', async () => {
    const other = (await api.post('/customers', { name: 'Listed' })).body.customer as Body;
    const inv = await draft({ customerId: other.id });
    const list = await api.get(`/invoices?customerId=${other.id as string}&status=draft`);
    expect((list.body.items as Invoice[]).map((i) => i.id)).toEqual([inv.id]);
    expect((await api.get('/invoices?status=open')).body.code).toBe('field_invalid_enum');
    expect((await api.get('/invoices/inv_missing')).status).toBe(404);
  });
});

describe('PATCH /invoices/:id', () => {
  it('amends a draft with If-Match; 428 without, 409 with the current record when stale', async () => {
    const inv = await draft();
    const missing = await api.patch(`/invoices/${inv.id}`, { title: 'New' });
    expect([missing.status, missing.body.code]).toEqual([428, 'precondition_required']);
    const ok = await api.patch(
      `/invoices/${inv.id}`,
      { lines: [{ description: 'Flat fee', quantity: 1, unitPriceCents: 5000 }], dueDate: '2031-01-31' },
      { 'if-match': inv.etag },
    );
    expect(ok.status).toBe(200);
    expect(invoice(ok)).toMatchObject({ dueDate: '2031-01-31', balanceCents: 5000 });
    const stale = await api.patch(`/invoices/${inv.id}`, { title: 'Stale' }, { 'if-match': inv.etag });
    expect([stale.status, stale.body.code]).toEqual([409, 'conflict']);
    expect((stale.body.current as Body).totals).toMatchObject({ totalCents: 5000 });
    const money = await api.patch(`/invoices/${inv.id}`, { balanceCents: 0 }, { 'if-match': '*' });
    expect(money.body.code).toBe('unknown_field');
  });

  it('refuses to amend an issued invoice (409 with the legal triggers)', async () => {
    const inv = await draft();
    await issue(inv.id);
    const late = await api.patch(`/invoices/${inv.id}`, { title: 'Changed' }, { 'if-match': '*' });
    expect([late.status, late.body.code]).toEqual([409, 'conflict']);
    expect(late.body.legalTriggers).toEqual(INVOICE_STATUS_MACHINE.legalTriggers('issued'));
  });
});

describe('POST /invoices/:id/issue (confirmation: a live payment page)', () => {
  it('asks first with willDo, then numbers it, emails the payment page and invoices the deal', async () => {
    const as = await freshApi();
    const deal = await wonDeal();
    const inv = await draft({ dealId: deal.id });
    const first = await as.post(`/invoices/${inv.id}/issue`, {});
    expect([first.status, first.body.code]).toEqual([409, 'confirmation_required']);
    expect(first.body.willDo).toMatchObject({
      effect: 'binding',
      recipient: 'b***@quarry.example',
      totalCents: TOTAL,
      summary: expect.stringContaining('payment page'),
    });
    expect(invoice(await api.get(`/invoices/${inv.id}`)).status).toBe('draft');
    const done = await as.post(
      `/invoices/${inv.id}/issue`,
      {},
      { 'x-service-confirm': String(first.body.confirmToken) },
    );
    expect(done.status).toBe(200);
    expect(invoice(done)).toMatchObject({ status: 'issued', number: expect.stringMatching(/^INV-\d{6}$/) });
    expect(done.body.dealMove).toMatchObject({ moved: true, fromStage: 'won', toStage: 'invoiced' });
    const mail = await side.messagesAbout(tenantId, inv.id);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.linkPath).toMatch(/^\/client\/v1\/invoice\?token=/);
    const page = await side.openInvoice(await side.linkTokenOf(tenantId, inv.id));
    expect(page).toMatchObject({ status: 'issued', balanceCents: TOTAL, number: invoice(done).number });
  });

  it('rehearses issue and void with x-service-dry-run: willDo, no confirmation, nothing applied', async () => {
    const inv = await draft();
    const dry = { 'x-service-dry-run': '1' };
    const issueDry = await api.post(`/invoices/${inv.id}/issue`, {}, dry);
    expect(issueDry.body).toMatchObject({ dryRun: true, applied: false, details: { totalCents: TOTAL } });
    const voidDry = await api.post(`/invoices/${inv.id}/void`, { reason: 'Test' }, dry);
    expect(voidDry.body).toMatchObject({ dryRun: true, applied: false });
    expect(invoice(await api.get(`/invoices/${inv.id}`))).toMatchObject({ status: 'draft' });
    expect(await side.messagesAbout(tenantId, inv.id)).toEqual([]);
  });

  it('numbers issued invoices in sequence without gaps', async () => {
    const as = await freshApi();
    const a = invoice(await issue((await draft()).id, as));
    const b = invoice(await issue((await draft()).id, as));
    expect(Number(b.number?.slice(4))).toBe(Number(a.number?.slice(4)) + 1);
  });

  it('refuses an invoice that bills nothing, and one already void', async () => {
    const empty = await draft({ lines: [] });
    expect((await api.post(`/invoices/${empty.id}/issue`, {})).body.code).toBe('conflict');
    const voided = await draft();
    await api.post(`/invoices/${voided.id}/void`, { reason: 'Wrong customer' });
    const reply = await api.post(`/invoices/${voided.id}/issue`, {});
    expect([reply.status, reply.body.code, reply.body.legalTriggers]).toEqual([409, 'conflict', []]);
  });

  it('spends the emails budget and answers 429 naming emails when it is spent', async () => {
    const as = await freshApi();
    const drafts = await Promise.all(Array.from({ length: EMAILS_PER_HOUR + 1 }, () => draft()));
    for (const inv of drafts.slice(0, EMAILS_PER_HOUR)) await issue(inv.id, as);
    const { final } = await confirmed(as, `/invoices/${drafts[EMAILS_PER_HOUR]?.id ?? ''}/issue`);
    expect([final.status, final.body.code, final.body.budget]).toEqual([429, 'rate_limited', 'emails']);
    expect(invoice(await api.get(`/invoices/${drafts[EMAILS_PER_HOUR]?.id ?? ''}`)).status).toBe('draft');
  });
});

describe('payments: recorded by the platform, never by the API', () => {
  it('has no endpoint that pays or refunds', async () => {
    const inv = await draft();
    for (const path of [
      `/invoices/${inv.id}/pay`,
      `/invoices/${inv.id}/refund`,
      `/invoices/${inv.id}/payments`,
    ] as const) {
      expect((await api.post(path, { amountCents: 1 })).status).toBe(404);
    }
    const paths = Object.keys(((await api.get('/openapi.json')).body.paths as Body) ?? {});
    expect(paths.filter((p) => /pay|refund/i.test(p))).toEqual([]);
  });

  it('refuses a payment recorded with an API token', async () => {
    const inv = await draft();
    await issue(inv.id);
    await expect(
      side.recordPayment(tenantId, { invoiceId: inv.id, amountCents: 100 }, 'token'),
    ).rejects.toMatchObject({
      code: 'role_denied',
    });
  });

  it('a partial payment keeps it issued; the one that clears the balance settles it, emitting payment.received', async () => {
    const deal = await wonDeal();
    const inv = await draft({ dealId: deal.id });
    await issue(inv.id);
    const part = await side.recordPayment(tenantId, { invoiceId: inv.id, amountCents: 16000, opId: 'psp-1' });
    expect(part.invoice).toMatchObject({ status: 'issued', paidCents: 16000, balanceCents: TOTAL - 16000 });
    const again = await side.recordPayment(tenantId, {
      invoiceId: inv.id,
      amountCents: 16000,
      opId: 'psp-1',
    });
    expect(again.meta?.replayed).toBe(true);
    await expect(
      side.recordPayment(tenantId, { invoiceId: inv.id, amountCents: TOTAL }),
    ).rejects.toMatchObject({ code: 'field_invalid' });
    const rest = await side.recordPayment(tenantId, {
      invoiceId: inv.id,
      amountCents: TOTAL - 16000,
      method: 'card',
    });
    expect(rest.invoice).toMatchObject({ status: 'paid', balanceCents: 0, paidAt: expect.any(String) });
    const read = invoice(await api.get(`/invoices/${inv.id}`));
    expect(read).toMatchObject({ status: 'paid', paidCents: TOTAL });
    expect((read.payments as Body[]).map((p) => p.amountCents)).toEqual([16000, TOTAL - 16000]);
    const actions = await eventually(async () => {
      const trail = ((await api.get(`/audit?resourceId=${inv.id}`)).body.items as Body[]).map(
        (e) => e.action,
      );
      return trail.filter((a) => a === 'payment.received').length === 2 ? trail : undefined;
    });
    expect(actions).toEqual(expect.arrayContaining(['invoice.paid', 'invoice.issued']));
  });

  it('a payment moves a deal the issue could not move, as the deal machine allows', async () => {
    const deal = (await api.post('/deals', { customerId })).body.deal as Body;
    const inv = await draft({ dealId: deal.id });
    const issued = await issue(inv.id);
    // From lead the deal machine has no invoice edge: the invoice is issued, the deal stays.
    expect(issued.body.dealMove).toMatchObject({ moved: false, fromStage: 'lead' });
    await api.post(`/deals/${deal.id as string}/advance`, { trigger: 'win' });
    const paid = await side.recordPayment(tenantId, { invoiceId: inv.id, amountCents: TOTAL });
    expect(paid.dealMove).toMatchObject({ moved: true, fromStage: 'won', toStage: 'invoiced' });
    expect(((await api.get(`/deals/${deal.id as string}`)).body.deal as Body).stage).toBe('invoiced');
  });

  it('an invoice with money received cannot be voided', async () => {
    const inv = await draft();
    await issue(inv.id);
    await side.recordPayment(tenantId, { invoiceId: inv.id, amountCents: 100 });
    const reply = await api.post(`/invoices/${inv.id}/void`, { reason: 'Customer asked' });
    expect([reply.status, reply.body.code]).toEqual([409, 'conflict']);
  });
});

// ---- The declared machine, move by move -------------------------------------------------------

/** How each trigger is fired: issue and void through the API, settle by the platform's payment. */
async function fire(inv: Invoice, trigger: InvoiceTrigger): Promise<{ status: number; body: Body }> {
  switch (trigger) {
    case 'issue':
      return confirmed(await freshApi(), `/invoices/${inv.id}/issue`).then(({ final }) => final);
    case 'void':
      return api.post(`/invoices/${inv.id}/void`, { reason: 'Raised in error' });
    case 'settle': {
      const balance = invoice(await api.get(`/invoices/${inv.id}`)).balanceCents;
      const write = await side.recordPayment(tenantId, { invoiceId: inv.id, amountCents: balance });
      return { status: 200, body: { invoice: write.invoice } };
    }
  }
}

async function invoiceAt(status: InvoiceStatus): Promise<Invoice> {
  const inv = await draft();
  for (const trigger of pathTo(INVOICE_STATUS_MACHINE, INVOICE_STATUS_MACHINE.legalTriggers, status)) {
    await fire(inv, trigger);
  }
  const read = invoice(await api.get(`/invoices/${inv.id}`));
  expect(read.status).toBe(status);
  return read;
}

describe('the invoice status machine (generated from the declared table)', () => {
  const API_TRIGGERS = INVOICE_STATUS_MACHINE.triggerNames.filter(
    (t) => !(INVOICE_STATUS_MACHINE.byPlatform as readonly string[]).includes(t),
  );
  const cases = INVOICE_STATUSES.flatMap((status) =>
    API_TRIGGERS.map((trigger) => [status, trigger] as const),
  );
  it.each(cases)('from %s, %s through the API', async (status, trigger) => {
    const inv = await invoiceAt(status);
    const reply = await fire(inv, trigger);
    const to = INVOICE_STATUS_MACHINE.triggers[trigger].to;
    await expectDeclaredMove(
      reply,
      {
        from: status,
        to,
        legal: INVOICE_STATUS_MACHINE.canFire(status, trigger),
        legalTriggers: INVOICE_STATUS_MACHINE.legalTriggers(status),
        name: 'invoice',
      },
      async () => invoice(await api.get(`/invoices/${inv.id}`)).status,
    );
  });

  it.each(INVOICE_STATUSES.filter((s) => s !== 'issued'))(
    'a payment on a %s invoice is refused',
    async (status) => {
      const inv = await invoiceAt(status);
      await expect(side.recordPayment(tenantId, { invoiceId: inv.id, amountCents: 1 })).rejects.toMatchObject(
        {
          code: 'conflict',
        },
      );
    },
  );
});
