// Bookings through the handlers: the request and the window it holds, the clash with
// alternatives, confirmation by a person and by the recorded instant-book policy, decline with a
// reason, the status machine (generated from the declared table), lists, and concurrency.
import { decisionsTableRows } from './decisions-table.ts';
import {
  BOOKING_STATUS_MACHINE,
  BOOKING_STATUSES,
  type BookingStatus,
  type BookingTrigger,
} from '@fieldops/contracts';
import { pagesBothWays } from '@fieldops/kit/testing';
import { bookings } from '@fieldops/proto';
import { BOOKINGS } from '../src/collections.ts';
import { createBookingHandlers, type BookingHandlers } from '../src/index.ts';
import type { BookingDoc } from '../src/bookings/booking.model.ts';
import { ctx, openTestCrm, outboxEvents, refusal, TENANT_A, type TestCrm } from './harness.ts';

const HOUR = 3_600_000;
/** A whole hour some days ahead, so windows are in the future and easy to read. */
const BASE = Math.ceil((Date.now() + 3 * 24 * HOUR) / HOUR) * HOUR;
const at = (hours: number): string => new Date(BASE + hours * HOUR).toISOString();
/** The same instant as at(hours), written with a +02:00 offset. */
const plusTwo = (hours: number): string =>
  `${new Date(BASE + (hours + 2) * HOUR).toISOString().slice(0, 19)}+02:00`;
const overlapsAny = (slot: { start: string; end: string }, held: { start: string; end: string }[]) =>
  held.some((window) => slot.start < window.end && window.start < slot.end);

const session = ctx({
  principal: { kind: 'session', tokenId: 'ses_1', role: 'Manager', memberId: 'mem_ana' },
});

describe('bookings', () => {
  let t: TestCrm;
  let b: BookingHandlers;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    t = await openTestCrm();
    b = createBookingHandlers(t.store);
    alice = (await t.crm.createCustomer({ name: 'Alice Roofing', email: 'alice@roof.io' }, ctx())).customer!
      .id;
    bob = (await t.crm.createCustomer({ name: 'Bob Quarry' }, ctx())).customer!.id;
  });
  afterEach(() => t.close());

  const request = async (fields: Partial<bookings.CreateBookingRequest> = {}) => {
    const { booking } = await b.createBooking(
      { customerId: alice, start: at(0), end: at(2), ...fields },
      ctx(),
    );
    if (!booking) throw new Error('no booking');
    return booking;
  };
  const confirm = (id: string, context = ctx()) => b.confirmBooking({ id }, context);

  describe('a request', () => {
    it('is created requested, normalised to UTC, and emits booking.requested', async () => {
      const { booking, meta } = await b.createBooking(
        { customerId: alice, start: plusTwo(0), end: plusTwo(1.5), notes: 'Gate code 4411' },
        ctx(),
      );
      expect(booking).toMatchObject({
        customerId: alice,
        status: 'requested',
        resourceId: 'default',
        start: at(0),
        end: at(1.5),
        notes: 'Gate code 4411',
      });
      expect(booking?.id).toMatch(/^bkg_/);
      expect(meta).toMatchObject({ created: true, replayed: false });
      const events = await outboxEvents(t.store);
      expect(events.filter((event) => event.type.startsWith('booking')).map((event) => event.type)).toEqual([
        'booking.requested',
      ]);
      const read = await b.getBooking({ id: booking!.id }, ctx());
      expect(read).toEqual({ booking, legalTriggers: ['confirm', 'decline'] });
    });

    const soon = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
    it.each<[string, string, string, Partial<bookings.CreateBookingRequest>]>([
      ['no customer', 'field_required', 'customerId', { customerId: '' }],
      ['no start', 'field_required', 'start', { start: '' }],
      ['a start in words', 'field_invalid', 'start', { start: 'tomorrow at ten' }],
      ['a local time (no offset)', 'field_invalid', 'start', { start: '2030-01-02T10:00:00' }],
      ['an empty window', 'field_invalid', 'end', { end: at(0) }],
      ['a window over 24 hours', 'field_invalid', 'end', { end: at(25) }],
      ['a window already begun', 'field_invalid', 'start', { start: soon(-1), end: soon(1) }],
      [
        'a start over a year ahead',
        'field_invalid',
        'start',
        { start: soon(400 * 24), end: soon(400 * 24 + 1) },
      ],
      ['a resource id with a space', 'field_invalid', 'resourceId', { resourceId: 'crew north' }],
      ['notes over 2000 characters', 'field_too_long', 'notes', { notes: 'x'.repeat(2001) }],
    ])('refuses %s with %s on %s and stores nothing', async (_label, code, field, fields) => {
      const error = await refusal(
        b.createBooking({ customerId: alice, start: at(0), end: at(2), ...fields }, ctx()),
      );
      expect(error.code).toBe(code);
      expect(error.extras['field']).toBe(field);
      expect(await t.store.count(BOOKINGS, TENANT_A, {})).toBe(0);
    });

    it('needs a customer of the tenant, and a deal of that customer', async () => {
      expect((await refusal(request({ customerId: 'cus_nope' }))).code).toBe('not_found');
      expect(
        (
          await refusal(
            b.createBooking({ customerId: alice, start: at(0), end: at(1) }, ctx({ tenantId: 'ten_beta' })),
          )
        ).code,
      ).toBe('not_found');
      expect((await refusal(request({ dealId: 'deal_nope' }))).code).toBe('not_found');
      const { deal } = await t.store
        .find(BOOKINGS, TENANT_A, {})
        .then(() => import('../src/index.ts'))
        .then(({ createDealHandlers }) => createDealHandlers(t.store).createDeal({ customerId: bob }, ctx()));
      const error = await refusal(request({ dealId: deal!.id }));
      expect(error).toMatchObject({ code: 'field_invalid', extras: { field: 'dealId' } });
      expect((await request({ customerId: bob, dealId: deal!.id })).dealId).toBe(deal!.id);
    });

    it('is exactly once with a key, and a dry run stores nothing', async () => {
      const keyed = ctx({ idempotencyKey: 'book-1' });
      const first = await b.createBooking({ customerId: alice, start: at(0), end: at(1) }, keyed);
      const again = await b.createBooking({ customerId: alice, start: at(0), end: at(1) }, keyed);
      expect(again.booking).toEqual(first.booking);
      expect(again.meta?.replayed).toBe(true);
      const rehearsal = await b.createBooking(
        { customerId: bob, start: at(5), end: at(6) },
        ctx({ dryRun: true }),
      );
      expect(rehearsal.meta?.rehearsal?.willDo).toMatch(/^Request a visit for customer "Bob Quarry"/);
      expect(await t.store.count(BOOKINGS, TENANT_A, {})).toBe(1);
    });
  });

  describe('the slot hold', () => {
    it('keeps other customers out of the window on the same resource, offering free windows of the same length', async () => {
      const held = await request({ start: at(0), end: at(2) });
      const later = await request({ start: at(3), end: at(4) });
      const error = await refusal(request({ customerId: bob, start: at(1), end: at(3) }));
      expect(error.code).toBe('conflict');
      expect(error.extras['clashes']).toEqual([
        { id: held.id, start: held.start, end: held.end, status: 'requested' },
      ]);
      const alternatives = error.extras['alternatives'] as { start: string; end: string }[];
      expect(alternatives.length).toBe(3);
      for (const slot of alternatives) {
        expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(2 * HOUR);
        expect(overlapsAny(slot, [held, later])).toBe(false);
      }
      // Nearest first: flush before the held window, then just after the later one.
      expect(alternatives[0]).toEqual({ start: at(-2), end: at(0) });
      expect(alternatives).toContainEqual({ start: at(4), end: at(6) });
      // Every alternative can be booked as offered.
      expect((await request({ customerId: bob, ...alternatives[0] })).status).toBe('requested');
    });

    it('does not clash on touching windows, on another resource, or with the same customer', async () => {
      await request({ start: at(0), end: at(2) });
      expect((await request({ customerId: bob, start: at(2), end: at(3) })).status).toBe('requested');
      expect(
        (await request({ customerId: bob, start: at(0), end: at(2), resourceId: 'crew-north' })).resourceId,
      ).toBe('crew-north');
      expect((await request({ start: at(0), end: at(1) })).status).toBe('requested');
    });

    it('is freed by a decline', async () => {
      const held = await request();
      await b.declineBooking({ id: held.id, reason: 'The crew is on leave that week.' }, ctx());
      expect((await request({ customerId: bob })).status).toBe('requested');
    });

    it('holds against one of two requests sent at the same moment', async () => {
      const race = (customerIds: string[]) =>
        Promise.allSettled(
          customerIds.map((customerId) => b.createBooking({ customerId, start: at(0), end: at(2) }, ctx())),
        );
      const [first, second] = await race([alice, bob]);
      expect([first?.status, second?.status].sort()).toEqual(['fulfilled', 'rejected']);
      const lost = [first, second].find((result) => result?.status === 'rejected') as PromiseRejectedResult;
      expect((lost.reason as { code: string }).code).toBe('conflict');
      expect(await t.store.count(BOOKINGS, TENANT_A, {})).toBe(1);
    });

    it('lets only one customer hold the window when several race for it', async () => {
      const results = await Promise.allSettled(
        [alice, bob, bob, alice].map((customerId) =>
          b.createBooking({ customerId, start: at(0), end: at(2) }, ctx()),
        ),
      );
      const won = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value.booking] : []));
      expect(new Set(won.map((booking) => booking?.customerId)).size).toBe(1);
      for (const result of results) {
        if (result.status === 'rejected') expect((result.reason as { code: string }).code).toBe('conflict');
      }
    });
  });

  describe('confirmation by a person', () => {
    it('confirms, recording the X-Agent-Confirmed-By claim and the principal, and emits booking.confirmed', async () => {
      const booking = await request();
      const context = ctx({ agent: { runId: 'run_1', task: '', model: '', confirmedBy: 'Ana (ops lead)' } });
      const { booking: confirmed, meta } = await confirm(booking.id, context);
      expect(confirmed).toMatchObject({
        status: 'confirmed',
        confirmedVia: 'confirmation',
        confirmedByClaim: 'Ana (ops lead)',
        confirmedByPrincipal: 'mem_ana',
      });
      expect(meta?.replayed).toBe(false);
      const events = (await outboxEvents(t.store)).filter((event) => event.type === 'booking.confirmed');
      expect(events).toHaveLength(1);
      expect(events[0]?.data).toMatchObject({
        from: 'requested',
        to: 'confirmed',
        booking: expect.objectContaining({
          id: booking.id,
          status: 'confirmed',
          confirmedByClaim: 'Ana (ops lead)',
        }),
      });
      expect((await b.getBooking({ id: booking.id }, ctx())).legalTriggers).toEqual([]);
    });

    it('answers replayed when already confirmed, and a confirmed visit keeps everyone out', async () => {
      const booking = await request();
      await confirm(booking.id);
      const again = await confirm(booking.id);
      expect(again.meta?.replayed).toBe(true);
      const error = await refusal(request({ start: at(1), end: at(2) })); // the same customer too
      expect(error.code).toBe('conflict');
    });

    it('re-checks the window: a clash with a visit confirmed since is refused with alternatives', async () => {
      const first = await request({ start: at(0), end: at(2) });
      const second = await request({ start: at(1), end: at(3) }); // Alice's other option
      await confirm(first.id);
      const error = await refusal(confirm(second.id));
      expect(error.code).toBe('conflict');
      expect(error.extras['clashes']).toEqual([
        expect.objectContaining({ id: first.id, status: 'confirmed' }),
      ]);
      const alternatives = error.extras['alternatives'] as { start: string; end: string }[];
      expect(alternatives.length).toBeGreaterThan(0);
      for (const slot of alternatives) expect(overlapsAny(slot, [first])).toBe(false);
      expect((await b.getBooking({ id: second.id }, ctx())).booking?.status).toBe('requested');
    });

    it('refuses a window that has already begun, offering future windows', async () => {
      const booking = await request();
      const doc = (await t.store.get<BookingDoc>(BOOKINGS, TENANT_A, booking.id))!;
      const past = {
        start: new Date(Date.now() - HOUR).toISOString(),
        end: new Date(Date.now() + HOUR).toISOString(),
      };
      await t.store.commit(TENANT_A, [
        {
          op: 'replace',
          collection: BOOKINGS,
          doc: { ...doc, ...past, version: doc.version + 1 },
          expectedVersion: doc.version,
        },
      ]);
      const error = await refusal(confirm(booking.id));
      expect(error.code).toBe('conflict');
      const alternatives = error.extras['alternatives'] as { start: string }[];
      expect(alternatives.length).toBeGreaterThan(0);
      for (const slot of alternatives) expect(Date.parse(slot.start)).toBeGreaterThan(Date.now());
    });

    it('confirms only one of two overlapping requests confirmed at the same moment', async () => {
      const first = await request({ start: at(0), end: at(2) });
      const second = await request({ start: at(1), end: at(3) });
      const results = await Promise.allSettled([confirm(first.id), confirm(second.id)]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const statuses = await Promise.all(
        [first, second].map(async ({ id }) => (await b.getBooking({ id }, ctx())).booking?.status),
      );
      expect(statuses.sort()).toEqual(['confirmed', 'requested']);
    });
  });

  describe('decline', () => {
    it('stores the reason the customer reads; declining again keeps the first reason', async () => {
      const booking = await request();
      const { booking: declined } = await b.declineBooking(
        { id: booking.id, reason: '  No crew free that morning.  ' },
        ctx(),
      );
      expect(declined).toMatchObject({ status: 'declined', declineReason: 'No crew free that morning.' });
      const again = await b.declineBooking({ id: booking.id, reason: 'Another reason' }, ctx());
      expect(again.meta?.replayed).toBe(true);
      expect(again.booking?.declineReason).toBe('No crew free that morning.');
      expect((await outboxEvents(t.store)).filter((event) => event.type === 'booking.declined')).toHaveLength(
        1,
      );
    });

    it.each([
      ['an empty', 'field_required', ''],
      ['a blank', 'field_required', '   '],
      ['an over-long', 'field_too_long', 'x'.repeat(1001)],
    ])('refuses %s reason with %s', async (_label, code, reason) => {
      const booking = await request();
      expect((await refusal(b.declineBooking({ id: booking.id, reason }, ctx()))).code).toBe(code);
      expect((await b.getBooking({ id: booking.id }, ctx())).booking?.status).toBe('requested');
    });

    it('answers not_found for a booking of another tenant', async () => {
      const booking = await request();
      const error = await refusal(
        b.declineBooking({ id: booking.id, reason: 'No.' }, ctx({ tenantId: 'ten_beta' })),
      );
      expect(error.code).toBe('not_found');
    });
  });

  describe('the status machine, from the declared table', () => {
    /** A booking in `status`, reached through the API's own moves. */
    const bookingIn = async (status: BookingStatus, hour: number) => {
      const booking = await request({ start: at(hour), end: at(hour + 1) });
      if (status === 'confirmed') await confirm(booking.id);
      if (status === 'declined') await b.declineBooking({ id: booking.id, reason: 'Not this week.' }, ctx());
      return booking.id;
    };
    const fire = (trigger: BookingTrigger, id: string) =>
      trigger === 'confirm' ? confirm(id) : b.declineBooking({ id, reason: 'Not this week.' }, ctx());

    const cases = BOOKING_STATUSES.flatMap((status) =>
      BOOKING_STATUS_MACHINE.triggerNames.map((trigger) => [status, trigger] as const),
    );
    it.each(cases)('from %s, %s follows the table', async (status, trigger) => {
      const id = await bookingIn(status, cases.findIndex(([s, tr]) => s === status && tr === trigger) * 2);
      const edge = BOOKING_STATUS_MACHINE.triggers[trigger];
      if ((edge.from as readonly string[]).includes(status)) {
        const { booking, meta } = await fire(trigger, id);
        expect(booking?.status).toBe(edge.to);
        expect(meta?.replayed).toBe(false);
      } else if (status === edge.to) {
        expect((await fire(trigger, id)).meta?.replayed).toBe(true);
      } else {
        const error = await refusal(fire(trigger, id));
        expect(error.code).toBe('conflict');
        expect(error.extras['legalTriggers']).toEqual([]);
      }
    });
  });

  describe('the instant-book policy', () => {
    it('is off until a member records it, and only a portal session may record it', async () => {
      expect(await b.getBookingPolicy({}, ctx())).toMatchObject({ instantBook: false, version: 0 });
      const error = await refusal(
        b.setBookingPolicy({ instantBook: true, minNoticeHours: 0, maxDurationMinutes: 120 }, ctx()),
      );
      expect(error.code).toBe('role_denied');
      const policy = await b.setBookingPolicy(
        { instantBook: true, minNoticeHours: 24, maxDurationMinutes: 120 },
        session,
      );
      expect(policy).toMatchObject({ instantBook: true, version: 1, recordedBy: 'mem_ana' });
      const refused = await refusal(
        b.setBookingPolicy({ instantBook: true, minNoticeHours: -1, maxDurationMinutes: 120 }, session),
      );
      expect(refused).toMatchObject({ code: 'field_invalid', extras: { field: 'minNoticeHours' } });
      expect(
        (await outboxEvents(t.store)).filter((event) => event.type === 'booking_policy.recorded'),
      ).toHaveLength(1);
    });

    it('confirms a covered request at creation, and leaves the rest to a person', async () => {
      await b.setBookingPolicy({ instantBook: true, minNoticeHours: 24, maxDurationMinutes: 120 }, session);
      const covered = await request({ start: at(0), end: at(2) });
      expect(covered).toMatchObject({
        status: 'confirmed',
        confirmedVia: 'instant_book_policy',
        policyVersion: 1,
      });
      expect(covered.confirmedByClaim).toBeUndefined();
      const tooLong = await request({ start: at(5), end: at(8) });
      expect(tooLong.status).toBe('requested');
      const soon = new Date(Date.now() + 2 * HOUR);
      const tooSoon = await request({
        start: soon.toISOString(),
        end: new Date(soon.getTime() + HOUR).toISOString(),
      });
      expect(tooSoon.status).toBe('requested');
      const types = (await outboxEvents(t.store))
        .map((event) => event.type)
        .filter((type) => type.startsWith('booking.'));
      expect(types.slice(0, 2)).toEqual(['booking.requested', 'booking.confirmed']);
      // Switched off again, new requests wait for a person.
      await b.setBookingPolicy({ instantBook: false, minNoticeHours: 24, maxDurationMinutes: 120 }, session);
      expect((await request({ start: at(10), end: at(11) })).status).toBe('requested');
    });
  });

  describe('list', () => {
    it('pages in calendar order and filters by status, customer, resource and time range', async () => {
      const late = await request({ start: at(10), end: at(11) });
      const early = await request({ start: at(0), end: at(1) });
      const bobs = await request({ customerId: bob, start: at(5), end: at(6), resourceId: 'drone-2' });
      await b.declineBooking({ id: late.id, reason: 'Fully booked.' }, ctx());
      const ids = async (req: Partial<bookings.ListBookingsRequest>) =>
        (await b.listBookings({ page: { cursor: '', limit: 50 }, ...req }, ctx())).items.map(
          (item) => item.id,
        );
      expect(await ids({})).toEqual([early.id, bobs.id, late.id]);
      expect(await ids({ status: 'declined' })).toEqual([late.id]);
      expect(await ids({ customerId: bob })).toEqual([bobs.id]);
      expect(await ids({ resourceId: 'drone-2' })).toEqual([bobs.id]);
      expect(await ids({ from: at(1), to: at(10) })).toEqual([bobs.id]); // [from, to) overlap
      const first = await b.listBookings({ page: { cursor: '', limit: 2 } }, ctx());
      const second = await b.listBookings({ page: { cursor: first.nextCursor, limit: 2 } }, ctx());
      expect([...first.items, ...second.items].map((item) => item.id)).toEqual([early.id, bobs.id, late.id]);
      expect(second.nextCursor).toBe('');
    });

    it('answers itemsAsJson with the JSON of exactly what items decode to, page by page', async () => {
      const late = await request({ start: at(10), end: at(11) });
      await request({ start: at(0), end: at(1) });
      await request({ customerId: bob, start: at(5), end: at(6), resourceId: 'drone-2' });
      await b.declineBooking({ id: late.id, reason: 'Fully booked.' }, ctx());
      const pages = await pagesBothWays((page) => b.listBookings({ page }, ctx()), bookings.Booking);
      expect(pages).toHaveLength(2);
      for (const page of pages) expect(page.json).toEqual(page.items);
    });

    it('refuses an unknown status, a bad instant and an empty range', async () => {
      const list = (req: Partial<bookings.ListBookingsRequest>) =>
        refusal(b.listBookings({ page: { cursor: '', limit: 10 }, ...req }, ctx()));
      expect((await list({ status: 'pending' })).code).toBe('field_invalid_enum');
      expect((await list({ from: 'yesterday' })).code).toBe('field_invalid');
      expect((await list({ from: at(2), to: at(1) })).code).toBe('field_invalid');
      expect((await list({ page: { cursor: 'garbage', limit: 10 } })).code).toBe('field_invalid');
    });
  });
});

describe('docs/decisions.md', () => {
  it('shows the booking status table exactly as the machine declares it', () => {
    const rows = decisionsTableRows('## Bookings');
    expect(rows.map((row) => row.slice(0, 3))).toEqual(
      BOOKING_STATUS_MACHINE.triggerNames.map((trigger) => {
        const { from, to } = BOOKING_STATUS_MACHINE.triggers[trigger];
        return [trigger, from.join(', '), to];
      }),
    );
  });
});
