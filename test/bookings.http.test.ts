// Bookings through HTTP: ENDPOINTS rows 60–64 and GET /booking-policy. A request holds its window
// against other customers; a person confirms it through the two-phase confirmation (the
// X-Agent-Confirmed-By header is kept as a claim), or the tenant's instant-book policy, recorded
// by a member in the portal, confirms it at once; confirming re-checks the window and refuses a
// clash with alternatives; declining needs a reason the customer reads.
import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  BOOKING_STATUS_MACHINE,
  BOOKING_STATUSES,
  type BookingStatus,
  type BookingTrigger,
} from '@fieldops/contracts';
import { eventually, type Body, type Client, type Reply, portalSession } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

let alice: string;
let bob: string;

const HOUR = 3_600_000;
/** A whole hour some days ahead; every test books its own hours off it so none collide. */
const BASE = Math.ceil((Date.now() + 3 * 24 * HOUR) / HOUR) * HOUR;
const at = (hours: number): string => new Date(BASE + hours * HOUR).toISOString();

type Booking = Body & { id: string; status: string; start: string; end: string; customerId: string };
type Slot = { start: string; end: string };
const booking = (reply: Reply<Body>) => reply.body.booking as Booking;

const customer = async (name: string, as = api): Promise<string> =>
  ((await as.post('/customers', { name })).body.customer as { id: string }).id;

const { platform, api, tenantId } = await suiteTenant('Bookings Co');
beforeAll(async () => {
  alice = await customer('Alice Roofing');
  bob = await customer('Bob Quarry');
});

const request = async (fields: Body, as = api): Promise<Booking> => {
  const reply = await as.post('/bookings', { customerId: alice, ...fields });
  expect(reply.status).toBe(201);
  return booking(reply);
};

/** The two-phase confirmation: the first call must demand it, the identical re-send performs it. */
async function confirmByPerson(id: string, headers: Record<string, string> = {}) {
  const first = await api.post(`/bookings/${id}/confirm`, undefined, headers);
  expect([first.status, first.body.code]).toEqual([409, 'confirmation_required']);
  const final = await api.post(`/bookings/${id}/confirm`, undefined, {
    ...headers,
    [String(first.body.confirmHeader)]: String(first.body.confirmToken),
  });
  return { first, final };
}

const overlapsAny = (slot: Slot, held: Slot[]) =>
  held.some((window) => slot.start < window.end && window.start < slot.end);

describe('POST /bookings', () => {
  it('creates a request in state requested, 201, readable with its legal triggers', async () => {
    const created = await api.post('/bookings', {
      customerId: alice,
      start: at(0),
      end: at(2),
      resourceId: 'crew-north',
      notes: 'Gate code 4411',
    });
    expect(created.status).toBe(201);
    expect(booking(created)).toMatchObject({
      status: 'requested',
      customerId: alice,
      resourceId: 'crew-north',
    });
    const read = await api.get(`/bookings/${booking(created).id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ booking: booking(created), legalTriggers: ['confirm', 'decline'] });
  });

  it.each<[string, string, unknown]>([
    ['customerId missing', 'field_required', { start: at(100), end: at(101) }],
    ['start missing', 'field_required', { customerId: 'cus_x', end: at(101) }],
    ['start not a date-time', 'field_invalid', { customerId: 'cus_x', start: 'next tuesday', end: at(101) }],
    ['end before start', 'field_invalid', { customerId: 'cus_x', start: at(101), end: at(100) }],
    [
      'notes too long',
      'field_too_long',
      { customerId: 'cus_x', start: at(100), end: at(101), notes: 'n'.repeat(2001) },
    ],
    [
      'an unknown field',
      'unknown_field',
      { customerId: 'cus_x', start: at(100), end: at(101), status: 'confirmed' },
    ],
    ['a body that is not an object', 'invalid_body', ['customerId']],
  ])('refuses %s with %s, 400', async (_label, code, body) => {
    const reply = await api.post('/bookings', body);
    expect([reply.status, reply.body.code]).toEqual([400, code]);
  });

  it('refuses malformed JSON with invalid_json', async () => {
    const reply = await api.request('POST', '/bookings', { body: '{"customerId":', headers: {} });
    expect([reply.status, reply.body.code]).toEqual([400, 'invalid_json']);
  });

  it('answers 404 for a customer that is not in the tenant', async () => {
    const other = await platform.tenant('Other Co');
    const theirs = await customer('Their Customer', other.api);
    const reply = await api.post('/bookings', { customerId: theirs, start: at(100), end: at(101) });
    expect([reply.status, reply.body.code]).toEqual([404, 'not_found']);
  });

  it('is exactly once with an opId, and rehearses without storing', async () => {
    const body = { customerId: bob, start: at(110), end: at(111), opId: 'bk-110' };
    const first = await api.post('/bookings', body);
    const again = await api.post('/bookings', body);
    expect([first.status, again.status, again.body.replayed]).toEqual([201, 200, true]);
    expect(booking(again).id).toBe(booking(first).id);
    const rehearsal = await api.post(
      '/bookings',
      { customerId: bob, start: at(112), end: at(113) },
      { 'x-service-dry-run': '1' },
    );
    expect(rehearsal.body).toMatchObject({ dryRun: true, applied: false });
    expect(String(rehearsal.body.willDo)).toMatch(/holds the window against other customers/);
    const listed = await api.get(`/bookings?customerId=${bob}&from=${at(112)}&to=${at(113)}`);
    expect(listed.body.items).toEqual([]);
  });

  it('needs create on job: a Viewer token is read_only', async () => {
    const viewer = await platform.token(tenantId, { role: 'Viewer' });
    const reply = await viewer.api.post('/bookings', { customerId: alice, start: at(120), end: at(121) });
    expect([reply.status, reply.body.code]).toEqual([403, 'read_only']);
    expect(reply.body.required).toEqual({ action: 'create', kind: 'job' });
    expect((await viewer.api.get('/bookings')).status).toBe(200);
  });
});

describe('the slot hold', () => {
  it("refuses another customer's overlapping window with 409 conflict and free alternatives", async () => {
    const held = await request({ start: at(10), end: at(12) });
    const clash = await api.post('/bookings', { customerId: bob, start: at(11), end: at(13) });
    expect([clash.status, clash.body.code, clash.body.retryable]).toEqual([409, 'conflict', true]);
    expect(clash.body.clashes).toEqual([
      { id: held.id, start: held.start, end: held.end, status: 'requested' },
    ]);
    const alternatives = clash.body.alternatives as Slot[];
    expect(alternatives.length).toBeGreaterThan(0);
    for (const slot of alternatives) {
      expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(2 * HOUR);
      expect(overlapsAny(slot, [held])).toBe(false);
    }
    // An offered window can be taken as offered; a window on another resource never clashed.
    expect((await request({ customerId: bob, ...alternatives[0] })).status).toBe('requested');
    expect(
      (await request({ customerId: bob, start: at(11), end: at(13), resourceId: 'drone-2' })).status,
    ).toBe('requested');
  });

  it('holds the window for exactly one of two requests sent at once', async () => {
    const replies = await Promise.all(
      [alice, bob].map((customerId) => api.post('/bookings', { customerId, start: at(20), end: at(22) })),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409]);
    const listed = await api.get(`/bookings?from=${at(20)}&to=${at(22)}`);
    expect(listed.body.items).toHaveLength(1);
  });
});

describe('POST /bookings/:id/confirm (a person, through the confirmation flow)', () => {
  it('demands confirmation, then confirms, recording X-Agent-Confirmed-By as a claim', async () => {
    const req = await request({ start: at(30), end: at(31) });
    const claim = { 'x-agent-confirmed-by': 'Ana, ops lead' };
    const first = await api.post(`/bookings/${req.id}/confirm`, undefined, claim);
    expect([first.status, first.body.code, first.body.confirmHeader]).toEqual([
      409,
      'confirmation_required',
      'x-service-confirm',
    ]);
    expect(first.body.willDo).toMatchObject({ effect: 'binding' });
    expect(String((first.body.willDo as Body).summary)).toMatch(new RegExp(`^Confirm booking ${req.id}`));
    expect((await api.get(`/bookings/${req.id}`)).body.booking).toMatchObject({ status: 'requested' });
    const final = await api.post(`/bookings/${req.id}/confirm`, undefined, {
      ...claim,
      'x-service-confirm': String(first.body.confirmToken),
    });
    expect(final.status).toBe(200);
    expect(booking(final)).toMatchObject({
      status: 'confirmed',
      confirmedVia: 'confirmation',
      confirmedByClaim: 'Ana, ops lead',
    });
    expect(booking(final).confirmedByPrincipal).toMatch(/^tok_/);
    // The audit trail keeps the same claim against the token that made it.
    const entry = await eventually(async () => {
      const items = (await api.get(`/audit?limit=100&resourceId=${req.id}`)).body.items as Body[] | undefined;
      return items?.find((item) => item.action === 'booking.confirmed');
    });
    expect(entry).toMatchObject({ operation: 'confirmBooking', agent: { confirmedBy: 'Ana, ops lead' } });
    const again = await confirmByPerson(req.id);
    expect([again.final.status, again.final.body.replayed]).toEqual([200, true]);
  });

  it("refuses another booking's token, and a dry run confirms nothing", async () => {
    const one = await request({ start: at(32), end: at(33) });
    const two = await request({ start: at(34), end: at(35) });
    const demand = await api.post(`/bookings/${one.id}/confirm`);
    const wrong = await api.post(`/bookings/${two.id}/confirm`, undefined, {
      'x-service-confirm': String(demand.body.confirmToken),
    });
    expect([wrong.status, wrong.body.code]).toEqual([409, 'confirmation_required']);
    const dry = await api.post(`/bookings/${two.id}/confirm`, undefined, { 'x-service-dry-run': '1' });
    expect(dry.body).toMatchObject({ dryRun: true, applied: false, booking: { status: 'confirmed' } });
    expect((await api.get(`/bookings/${two.id}`)).body.booking).toMatchObject({ status: 'requested' });
  });

  it('re-checks the window at confirmation: a visit confirmed since is a clash, with alternatives', async () => {
    const first = await request({ start: at(40), end: at(42) });
    const second = await request({ start: at(41), end: at(43) }); // Alice's other option
    const demand = await api.post(`/bookings/${second.id}/confirm`);
    expect(demand.body.code).toBe('confirmation_required');
    await confirmByPerson(first.id);
    const redeemed = await api.post(`/bookings/${second.id}/confirm`, undefined, {
      'x-service-confirm': String(demand.body.confirmToken),
    });
    expect([redeemed.status, redeemed.body.code]).toEqual([409, 'conflict']);
    expect(redeemed.body.clashes).toEqual([expect.objectContaining({ id: first.id, status: 'confirmed' })]);
    const alternatives = redeemed.body.alternatives as Slot[];
    expect(alternatives.length).toBeGreaterThan(0);
    for (const slot of alternatives) expect(overlapsAny(slot, [first])).toBe(false);
    expect((await api.get(`/bookings/${second.id}`)).body.booking).toMatchObject({ status: 'requested' });
    // Asked again, the clash is found before anyone is asked to confirm.
    expect((await api.post(`/bookings/${second.id}/confirm`)).body.code).toBe('conflict');
  });

  it('answers 404 for an unknown booking', async () => {
    const reply = await api.post('/bookings/bkg_nope/confirm');
    expect([reply.status, reply.body.code]).toEqual([404, 'not_found']);
  });
});

describe('POST /bookings/:id/decline', () => {
  it('stores the reason the customer reads and frees the window; declining again is replayed', async () => {
    const req = await request({ start: at(50), end: at(51) });
    const declined = await api.post(`/bookings/${req.id}/decline`, {
      reason: 'No crew is free that morning.',
    });
    expect(declined.status).toBe(200);
    expect(booking(declined)).toMatchObject({
      status: 'declined',
      declineReason: 'No crew is free that morning.',
    });
    const again = await api.post(`/bookings/${req.id}/decline`, { reason: 'Something else' });
    expect([again.status, again.body.replayed, booking(again).declineReason]).toEqual([
      200,
      true,
      'No crew is free that morning.',
    ]);
    expect((await request({ customerId: bob, start: at(50), end: at(51) })).status).toBe('requested');
  });

  it.each<[string, string, unknown]>([
    ['no reason', 'field_required', {}],
    ['a blank reason', 'field_required', { reason: '   ' }],
    ['a reason over 1000 characters', 'field_too_long', { reason: 'r'.repeat(1001) }],
    ['an unknown field', 'unknown_field', { reason: 'No.', notify: false }],
  ])('refuses %s with %s and leaves the booking requested', async (_label, code, body) => {
    const req = await request({
      start: at(52),
      end: at(53),
      resourceId: `r-${code}-${String(Object.keys(body as Body).length)}`,
    });
    const reply = await api.post(`/bookings/${req.id}/decline`, body);
    expect([reply.status, reply.body.code]).toEqual([400, code]);
    expect((await api.get(`/bookings/${req.id}`)).body.booking).toMatchObject({ status: 'requested' });
  });
});

describe('the booking status machine over HTTP, generated from the declared table', () => {
  /** A booking brought to `status` through the API's own moves. */
  async function bookingIn(status: BookingStatus, hour: number): Promise<string> {
    const req = await request({ start: at(hour), end: at(hour + 1), resourceId: 'machine' });
    if (status === 'confirmed') await confirmByPerson(req.id);
    if (status === 'declined') await api.post(`/bookings/${req.id}/decline`, { reason: 'Fully booked.' });
    return req.id;
  }

  /** Fires `trigger`, answering a confirmation demand the way a person would. */
  async function fire(trigger: BookingTrigger, id: string): Promise<Reply<Body>> {
    if (trigger === 'decline') return api.post(`/bookings/${id}/decline`, { reason: 'Fully booked.' });
    const first = await api.post(`/bookings/${id}/confirm`);
    if (first.body.code !== 'confirmation_required') return first;
    return api.post(`/bookings/${id}/confirm`, undefined, {
      'x-service-confirm': String(first.body.confirmToken),
    });
  }

  const cases = BOOKING_STATUSES.flatMap((status) =>
    BOOKING_STATUS_MACHINE.triggerNames.map((trigger) => [status, trigger] as const),
  );
  it.each(cases)('from %s, %s answers as the table says', async (status, trigger) => {
    const hour = 200 + 2 * cases.findIndex(([s, t]) => s === status && t === trigger);
    const id = await bookingIn(status, hour);
    const edge = BOOKING_STATUS_MACHINE.triggers[trigger];
    const reply = await fire(trigger, id);
    if ((edge.from as readonly string[]).includes(status)) {
      expect([reply.status, booking(reply).status, reply.body.replayed]).toEqual([200, edge.to, undefined]);
    } else if (status === edge.to) {
      expect([reply.status, booking(reply).status, reply.body.replayed]).toEqual([200, edge.to, true]);
    } else {
      expect([reply.status, reply.body.code]).toEqual([409, 'conflict']);
      expect(reply.body.legalTriggers).toEqual(BOOKING_STATUS_MACHINE.legalTriggers(status));
      expect((await api.get(`/bookings/${id}`)).body.booking).toMatchObject({ status });
    }
  });
});

describe('GET /bookings', () => {
  it('pages in calendar order with filters; refuses an unknown status and clamps the limit', async () => {
    const carol = await customer('Carol Survey');
    const late = await request({ customerId: carol, start: at(62), end: at(63), resourceId: 'carol' });
    const early = await request({ customerId: carol, start: at(60), end: at(61), resourceId: 'carol' });
    await api.post(`/bookings/${late.id}/decline`, { reason: 'Fully booked.' });
    const page1 = await api.get(`/bookings?customerId=${carol}&limit=1`);
    expect((page1.body.items as Booking[]).map((item) => item.id)).toEqual([early.id]);
    const page2 = await api.get(
      `/bookings?customerId=${carol}&limit=1&cursor=${String(page1.body.nextCursor)}`,
    );
    expect((page2.body.items as Booking[]).map((item) => item.id)).toEqual([late.id]);
    expect(page2.body.nextCursor).toBeNull();
    const declined = await api.get(`/bookings?customerId=${carol}&status=declined`);
    expect((declined.body.items as Booking[]).map((item) => item.id)).toEqual([late.id]);
    const bad = await api.get('/bookings?status=pending');
    expect([bad.status, bad.body.code]).toEqual([400, 'field_invalid_enum']);
    const clamped = await api.get('/bookings?limit=500');
    expect(clamped.body).toMatchObject({ limit: 100, limitClamped: true });
  });

  it('answers 404 for a booking of another tenant', async () => {
    const req = await request({ start: at(64), end: at(65) });
    const other = await platform.tenant('Nosy Co');
    expect((await other.api.get(`/bookings/${req.id}`)).status).toBe(404);
  });
});

describe('the instant-book policy (recorded by a member in the portal)', () => {
  let policyApi: Client;
  let policyTenant: string;
  let dana: string;

  const session = (role: string, email: string) => portalSession(platform, policyTenant, { role, email });

  const putPolicy = async (headers: Record<string, string>, body: Body) => {
    const res = await fetch(`${platform.url}/api/portal/booking-policy`, {
      method: 'PUT',
      headers,
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Body };
  };

  beforeAll(async () => {
    ({ api: policyApi, tenantId: policyTenant } = await platform.tenant('Instant Co'));
    dana = await customer('Dana Solar', policyApi);
  });

  it('is off until recorded; no API token can record it, only a member allowed to change settings', async () => {
    expect((await policyApi.get('/booking-policy')).body.policy).toMatchObject({
      instantBook: false,
      version: 0,
    });
    const manager = await platform.token(policyTenant, { role: 'Manager' });
    const withToken = await putPolicy(
      { authorization: `Bearer ${manager.secret}`, 'content-type': 'application/json' },
      { instantBook: true },
    );
    expect([withToken.status, withToken.body.code]).toEqual([401, 'no_session']);
    const staff = await putPolicy(await session('Staff', 'staff@instant.test'), { instantBook: true });
    expect([staff.status, staff.body.code]).toEqual([403, 'role_denied']);
    const owner = await session('Manager', 'owner@instant.test');
    const badRange = await putPolicy(owner, { instantBook: true, minNoticeHours: -5 });
    expect([badRange.status, badRange.body.code]).toEqual([400, 'field_invalid']);
    const recorded = await putPolicy(owner, {
      instantBook: true,
      minNoticeHours: 24,
      maxDurationMinutes: 120,
    });
    expect(recorded.status).toBe(200);
    expect(recorded.body.policy).toMatchObject({ instantBook: true, version: 1, minNoticeHours: 24 });
    expect((await policyApi.get('/booking-policy')).body.policy).toMatchObject({
      instantBook: true,
      version: 1,
    });
  });

  it('confirms a covered request at once and leaves the others to a person', async () => {
    const covered = await request({ customerId: dana, start: at(70), end: at(72) }, policyApi);
    expect(covered).toMatchObject({
      status: 'confirmed',
      confirmedVia: 'instant_book_policy',
      policyVersion: 1,
    });
    const tooLong = await request({ customerId: dana, start: at(74), end: at(78) }, policyApi);
    expect(tooLong.status).toBe('requested');
    // The confirmed visit holds its window against everyone, with alternatives offered.
    const clash = await policyApi.post('/bookings', { customerId: dana, start: at(71), end: at(72) });
    expect([clash.status, clash.body.code]).toEqual([409, 'conflict']);
    expect((clash.body.alternatives as Slot[]).length).toBeGreaterThan(0);
  });
});
