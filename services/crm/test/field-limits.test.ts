// crm re-checks the field limits the gateway states (contracts/src/field-limits/crm.ts): an over-long
// field sent straight to the service, past the gateway, is refused with the gateway's own error
// (field_too_long naming the field) and writes nothing.
import {
  BILLING_DOCUMENT_FIELD_LIMITS,
  BILLING_REASON_MAX,
  BOOKING_FIELD_LIMITS,
  CUSTOMER_FIELD_LIMITS,
  DEAL_FIELD_LIMITS,
  LEAD_FIELD_LIMITS,
} from '@fieldops/contracts';
import { BOOKINGS, CUSTOMERS, DEALS, INVOICES, LEADS, PROPOSALS } from '../src/collections.ts';
import { createBookingHandlers, createDealHandlers } from '../src/index.ts';
import { ctx, openTestCrm, outboxEvents, refusal, TENANT_A } from './harness.ts';
import type { TestCrm } from './harness.ts';
import { LINES, openTestBilling } from './billing.support.ts';
import type { TestBilling } from './billing.support.ts';

const tooLong = (max: number) => 'x'.repeat(max + 1);

function expectTooLong(error: Awaited<ReturnType<typeof refusal>>, field: string, max: number): void {
  expect(error.code).toBe('field_too_long');
  expect(error.message).toBe(`${field} must be at most ${max} characters.`);
  expect(error.extras).toMatchObject({ field, maxLength: max });
}

describe('crm field limits, checked by the service itself', () => {
  let t: TestCrm;
  beforeEach(async () => {
    t = await openTestCrm();
  });
  afterEach(() => t.close());

  it.each(Object.entries(LEAD_FIELD_LIMITS))(
    'createLead refuses a %s over %i characters',
    async (field, max) => {
      const error = await refusal(t.crm.createLead({ name: 'Ana Roof', [field]: tooLong(max) }, ctx()));
      expectTooLong(error, field, max);
      expect(await t.store.count(LEADS, TENANT_A, {})).toBe(0);
      expect(await outboxEvents(t.store)).toEqual([]);
    },
  );

  it('accepts a lead whose fields are exactly at their limits', async () => {
    const { lead } = await t.crm.createLead({ name: 'x'.repeat(LEAD_FIELD_LIMITS.name) }, ctx());
    expect(lead?.name).toHaveLength(LEAD_FIELD_LIMITS.name);
  });

  it('updateLead refuses an over-long field and leaves the lead as it was', async () => {
    const { lead } = await t.crm.createLead({ name: 'Ana Roof' }, ctx());
    const id = lead?.id ?? '';
    const error = await refusal(
      t.crm.updateLead({ id, ifMatch: lead?.etag ?? '', phone: tooLong(LEAD_FIELD_LIMITS.phone) }, ctx()),
    );
    expectTooLong(error, 'phone', LEAD_FIELD_LIMITS.phone);
    expect((await t.crm.getLead({ id }, ctx())).lead).toEqual(lead);
  });

  it.each(Object.entries(CUSTOMER_FIELD_LIMITS))(
    'createCustomer refuses a %s over %i characters',
    async (field, max) => {
      const error = await refusal(
        t.crm.createCustomer({ name: 'Pipeline Ltd', [field]: tooLong(max) }, ctx()),
      );
      expectTooLong(error, field, max);
      expect(await t.store.count(CUSTOMERS, TENANT_A, {})).toBe(0);
    },
  );

  it('updateCustomer refuses an over-long field and leaves the customer as it was', async () => {
    const { customer } = await t.crm.createCustomer({ name: 'Pipeline Ltd' }, ctx());
    const id = customer?.id ?? '';
    const max = CUSTOMER_FIELD_LIMITS.company;
    expectTooLong(
      await refusal(
        t.crm.updateCustomer({ id, ifMatch: customer?.etag ?? '', company: tooLong(max) }, ctx()),
      ),
      'company',
      max,
    );
    expect((await t.crm.getCustomer({ id }, ctx())).customer).toEqual(customer);
  });

  it.each(Object.entries(DEAL_FIELD_LIMITS))(
    'createDeal refuses a %s over %i characters',
    async (field, max) => {
      const { customer } = await t.crm.createCustomer({ name: 'Pipeline Ltd' }, ctx());
      const deals = createDealHandlers(t.store);
      const request = { customerId: customer?.id ?? '', [field]: tooLong(max) };
      expectTooLong(await refusal(deals.createDeal(request, ctx())), field, max);
      expect(await t.store.count(DEALS, TENANT_A, {})).toBe(0);
    },
  );

  it.each(Object.entries(BOOKING_FIELD_LIMITS))(
    'createBooking refuses a %s over %i characters',
    async (field, max) => {
      const { customer } = await t.crm.createCustomer({ name: 'Pipeline Ltd' }, ctx());
      const bookings = createBookingHandlers(t.store);
      const start = new Date(Date.UTC(2100, 0, 1, 9)).toISOString();
      const end = new Date(Date.UTC(2100, 0, 1, 11)).toISOString();
      const request = { customerId: customer?.id ?? '', start, end, [field]: tooLong(max) };
      expectTooLong(await refusal(bookings.createBooking(request, ctx())), field, max);
      expect(await t.store.count(BOOKINGS, TENANT_A, {})).toBe(0);
    },
  );
});

describe('billing document field limits, checked by the service itself', () => {
  let t: TestBilling;
  beforeEach(async () => {
    t = await openTestBilling();
  });
  afterEach(() => t.close());

  const sent = ['title', 'notes', 'recipientEmail'] as const;

  it.each(sent)('createProposal and createInvoice refuse an over-long %s', async (field) => {
    const max = BILLING_DOCUMENT_FIELD_LIMITS[field];
    const request = { customerId: t.customerId, title: 'Roof survey', lines: LINES, [field]: tooLong(max) };
    expectTooLong(await refusal(t.billing.proposals.createProposal(request, ctx())), field, max);
    expectTooLong(await refusal(t.billing.invoices.createInvoice(request, ctx())), field, max);
    expect(await t.store.count(PROPOSALS, TENANT_A, {})).toBe(0);
    expect(await t.store.count(INVOICES, TENANT_A, {})).toBe(0);
  });

  it('sendProposal, issueInvoice, withdrawProposal and voidInvoice refuse an over-long note or reason', async () => {
    const draft = { customerId: t.customerId, title: 'Roof survey', lines: LINES };
    const { proposal } = await t.billing.proposals.createProposal(draft, ctx());
    const { invoice } = await t.billing.invoices.createInvoice(draft, ctx());
    const over = tooLong(BILLING_REASON_MAX);
    const { proposals, invoices } = t.billing;
    const proposalId = proposal?.id ?? '';
    const invoiceId = invoice?.id ?? '';
    const before = await outboxEvents(t.store);
    const message = (error: Awaited<ReturnType<typeof refusal>>) =>
      expectTooLong(error, 'message', BILLING_REASON_MAX);
    const reason = (error: Awaited<ReturnType<typeof refusal>>) =>
      expectTooLong(error, 'reason', BILLING_REASON_MAX);
    message(await refusal(proposals.sendProposal({ id: proposalId, message: over }, ctx())));
    message(await refusal(invoices.issueInvoice({ id: invoiceId, message: over }, ctx())));
    reason(await refusal(proposals.withdrawProposal({ id: proposalId, reason: over }, ctx())));
    reason(await refusal(invoices.voidInvoice({ id: invoiceId, reason: over }, ctx())));
    expect(await outboxEvents(t.store)).toEqual(before);
  });
});
