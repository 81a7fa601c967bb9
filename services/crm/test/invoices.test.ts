// Invoices through the handlers: drafts that ask nobody, issue (number, mail, link, deal move),
// void, and the payments the platform records, with what each write emits.
import { pagesBothWays } from '@fieldops/kit/testing';
import { billing as billingProto, type common } from '@fieldops/proto';
import { customerBilling } from '../src/customer-service/customer-billing.ts';
import { INVOICES } from '../src/collections.ts';
import type { InvoiceDoc } from '../src/invoices/invoice.model.ts';
import { LINES, linkCtx, openTestBilling, systemCtx, TOTAL, type TestBilling } from './billing.support.ts';
import { ctx, outboxEvents, refusal } from './harness.ts';

describe('invoices', () => {
  let t: TestBilling;
  beforeEach(async () => {
    t = await openTestBilling();
  });
  afterEach(() => t.close());

  const draft = async (fields: Record<string, unknown> = {}) => {
    const { invoice } = await t.billing.invoices.createInvoice(
      { customerId: t.customerId, lines: LINES, ...fields },
      ctx(),
    );
    if (!invoice) throw new Error('no invoice');
    return invoice;
  };
  const issue = (id: string) => t.billing.invoices.issueInvoice({ id }, ctx());
  const pay = (invoiceId: string, amountCents: number, c = systemCtx(), extra = {}) =>
    t.billing.invoices.recordPayment({ invoiceId, amountCents, method: 'bank_transfer', ...extra }, c);
  const types = async () => (await outboxEvents(t.store)).map((event) => event.type);
  const wonDeal = async () => {
    const { deal } = await t.deals.createDeal({ customerId: t.customerId }, ctx());
    await t.deals.advanceDeal({ id: deal?.id ?? '', trigger: 'win' }, ctx());
    return deal?.id ?? '';
  };

  it('answers itemsAsJson with the JSON of exactly what items decode to, page by page', async () => {
    const issued = await draft();
    await issue(issued.id);
    await pay(issued.id, 1000);
    await draft();
    await draft({ notes: 'Third' });
    const list = (page: common.PageRequest) => t.billing.invoices.listInvoices({ page }, ctx());
    const pages = await pagesBothWays(list, billingProto.Invoice);
    expect(pages).toHaveLength(2);
    for (const page of pages) expect(page.json).toEqual(page.items);
  });

  it('a draft is only a record: one event, no email, no number, no deal move', async () => {
    const dealId = await wonDeal();
    const inv = await draft({ customerId: undefined, dealId });
    expect(inv).toMatchObject({ status: 'draft', title: 'Invoice for Dana Roofs', balanceCents: TOTAL });
    expect(inv.number).toBeUndefined();
    expect((await t.billing.mailOutbox.listOutboundMessages({ aboutId: inv.id }, ctx())).items).toEqual([]);
    expect((await types()).filter((type) => type.startsWith('invoice.'))).toEqual(['invoice.created']);
    expect((await t.deals.getDeal({ id: dealId }, ctx())).deal?.stage).toBe('won');
  });

  it('issue numbers it, queues the payment-page email and invoices the deal in one commit', async () => {
    const dealId = await wonDeal();
    const inv = await draft({ dealId });
    const rehearsal = await t.billing.invoices.issueInvoice({ id: inv.id }, ctx({ dryRun: true }));
    expect(rehearsal.meta?.rehearsal).toMatchObject({
      recipientMasked: 'd***@roofs.example',
      totalCents: TOTAL,
    });
    expect((await t.billing.invoices.getInvoice({ id: inv.id }, ctx())).invoice?.status).toBe('draft');

    const issued = await issue(inv.id);
    expect(issued.invoice).toMatchObject({
      status: 'issued',
      number: 'INV-000001',
      issuedAt: expect.any(String),
    });
    expect(issued.dealMove).toMatchObject({ moved: true, toStage: 'invoiced' });
    const page = await t.billing.clientLinks.openInvoice({ token: await t.linkOf(inv.id) }, linkCtx());
    expect(page).toMatchObject({ number: 'INV-000001', balanceCents: TOTAL, status: 'issued' });
    expect(await types()).toEqual(expect.arrayContaining(['invoice.issued', 'deal.stage_changed']));
    const second = await issue((await draft()).id);
    expect(second.invoice?.number).toBe('INV-000002');
  });

  it('two invoices issued at once take different numbers', async () => {
    const [a, b] = await Promise.all([draft(), draft()]);
    const issued = await Promise.all([issue(a?.id ?? ''), issue(b?.id ?? '')]);
    expect(issued.map((w) => w.invoice?.number).sort()).toEqual(['INV-000001', 'INV-000002']);
  });

  it('void retires the payment page; a voided invoice is final', async () => {
    const inv = await draft();
    await issue(inv.id);
    const token = await t.linkOf(inv.id);
    const voided = await t.billing.invoices.voidInvoice({ id: inv.id, reason: 'Billed twice' }, ctx());
    expect(voided.invoice).toMatchObject({ status: 'void', voidReason: 'Billed twice' });
    expect((await refusal(t.billing.clientLinks.openInvoice({ token }, linkCtx()))).code).toBe('not_found');
    expect((await refusal(t.billing.invoices.voidInvoice({ id: inv.id, reason: ' ' }, ctx()))).code).toBe(
      'field_required',
    );
    expect(await types()).toContain('invoice.voided');
  });

  it('payments: only the platform records them; partial, then settling, each emitting payment.received', async () => {
    const dealId = await wonDeal();
    const inv = await draft({ dealId });
    await issue(inv.id);
    expect((await refusal(pay(inv.id, 100, ctx()))).code).toBe('role_denied');
    const link = { ...linkCtx(), principal: { kind: 'customer_link', tokenId: 'x', role: '', memberId: '' } };
    expect((await refusal(pay(inv.id, 100, link))).code).toBe('role_denied');

    const member = ctx({
      principal: { kind: 'session', tokenId: 'ses_1', role: 'Manager', memberId: 'mem_bo' },
    });
    const part = await pay(inv.id, 1000, member, { reference: 'SEPA 123' });
    expect(part.invoice?.payments[0]).toMatchObject({
      amountCents: 1000,
      recordedBy: 'mem_bo',
      reference: 'SEPA 123',
    });
    const rest = await pay(inv.id, TOTAL - 1000);
    expect(rest.invoice).toMatchObject({ status: 'paid', balanceCents: 0 });
    const events = await outboxEvents(t.store);
    const received = events.filter((e) => e.type === 'payment.received');
    expect(received.map((e) => e.data.balanceCents)).toEqual([TOTAL - 1000, 0]);
    expect(events.map((e) => e.type)).toContain('invoice.paid');
  });

  it('refuses bad payments with the field named, and records nothing', async () => {
    const inv = await draft();
    await issue(inv.id);
    expect((await refusal(pay(inv.id, 0))).extras.field).toBe('amountCents');
    expect((await refusal(pay(inv.id, TOTAL + 1))).extras).toMatchObject({ balanceCents: TOTAL });
    expect((await refusal(pay(inv.id, 1, systemCtx(), { method: 'crypto' }))).code).toBe(
      'field_invalid_enum',
    );
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect((await refusal(pay(inv.id, 1, systemCtx(), { receivedAt: future }))).code).toBe('field_invalid');
    expect((await t.store.get<InvoiceDoc>(INVOICES, 'ten_alpha', inv.id))?.payments).toEqual([]);
  });

  it('a payment reported twice with the same opId is recorded once', async () => {
    const inv = await draft();
    await issue(inv.id);
    await pay(inv.id, 500, systemCtx(), { opId: 'psp_evt_1' });
    const again = await pay(inv.id, 500, systemCtx(), { opId: 'psp_evt_1' });
    expect(again.meta?.replayed).toBe(true);
    expect((await t.billing.invoices.getInvoice({ id: inv.id }, ctx())).invoice?.paidCents).toBe(500);
  });

  it('refuses dates that are not calendar dates', async () => {
    expect((await refusal(draft({ dueDate: '2030-13-01' }))).code).toBe('field_invalid');
    expect((await refusal(draft({ dueDate: '2030-01-01T00:00:00Z' }))).code).toBe('field_invalid');
    expect((await draft({ dueDate: '2030-01-31' })).dueDate).toBe('2030-01-31');
  });
});

describe("a customer's billing (for the customer read)", () => {
  let t: TestBilling;
  beforeEach(async () => {
    t = await openTestBilling();
  });
  afterEach(() => t.close());

  it('lists proposals and invoices and rolls up invoiced, paid and outstanding; drafts and voids bill nobody', async () => {
    const create = async () =>
      (await t.billing.invoices.createInvoice({ customerId: t.customerId, lines: LINES }, ctx())).invoice
        ?.id ?? '';
    const [paidPart, untouched, voided, drafted] = [
      await create(),
      await create(),
      await create(),
      await create(),
    ];
    for (const id of [paidPart, untouched, voided]) await t.billing.invoices.issueInvoice({ id }, ctx());
    await t.billing.invoices.voidInvoice({ id: voided, reason: 'Duplicate' }, ctx());
    await t.billing.invoices.recordPayment(
      { invoiceId: paidPart, amountCents: 1000, method: 'cash' },
      systemCtx(),
    );
    await t.billing.proposals.createProposal(
      { customerId: t.customerId, title: 'Offer', lines: LINES },
      ctx(),
    );
    const billing = await customerBilling(t.store, 'ten_alpha', t.customerId, 'EUR');
    expect(billing).toMatchObject({
      invoicedCents: 2 * TOTAL,
      paidCents: 1000,
      outstandingCents: 2 * TOTAL - 1000,
    });
    expect(billing.invoices.map((r) => r.id).sort()).toEqual([paidPart, untouched, voided, drafted].sort());
    expect(billing.proposals).toEqual([
      expect.objectContaining({ kind: 'proposal', status: 'draft', name: 'Offer' }),
    ]);
  });
});
