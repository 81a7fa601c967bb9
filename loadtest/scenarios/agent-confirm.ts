// An automated agent booking site visits the way the spec asks agents to act on binding
// operations: it requests a window, asks the API what confirming it would do (x-service-dry-run:
// 1, nothing applied), then confirms it through the two-phase confirmation: the first call answers
// 409 confirmation_required with a token, the identical request re-sent with the token in the
// header the API names is performed. POST /bookings/:id/confirm is the endpoint used because its
// registry entry carries both `dryRun` and `confirm` without spending a consequence budget (a
// proposal send or an invoice issue would email a real recipient on every iteration).
import {
  API,
  asRecord,
  asString,
  codeOf,
  idOf,
  json,
  send,
  type Flow,
  type Reply,
  type RequestSpec,
} from './http.ts';
import { seedKey, type Scenario, type SetupOutcome } from './scenario.ts';

export interface AgentData {
  customerId: string;
  /** ISO instant of the first window; iteration i of a VU books [from + i h, from + i h + 1 h). */
  from: string;
}

/** The dry-run header (spec, Conventions 7). */
export const DRY_RUN_HEADER = 'x-service-dry-run';

const HOUR_MS = 3_600_000;
/** Far enough ahead that no notice rule refuses a window, near enough to stay plausible. */
const LEAD_DAYS = 30;

function* setup(): Flow<SetupOutcome<AgentData>> {
  const policy = yield* send({
    step: 'read booking policy',
    method: 'GET',
    path: `${API}/booking-policy`,
    expect: [200],
  });
  if (asRecord(asRecord(policy.body).policy).instantBook === true) {
    return {
      skip: "the tenant's instant-book policy confirms bookings at creation: use a tenant without one",
    };
  }
  const body = { name: 'Load Agent Customer', opId: seedKey('agent-customer', 0) };
  const customer = yield* send(json('seed customer', 'POST', `${API}/customers`, body, [200, 201]));
  const from = new Date(Date.now() + LEAD_DAYS * 24 * HOUR_MS);
  from.setUTCMinutes(0, 0, 0);
  return { data: { customerId: idOf(customer, 'customer'), from: from.toISOString() } };
}

/** Sends `request`; on 409 confirmation_required, sends it again with the token it was given. */
export function* withConfirmation(
  request: RequestSpec,
  confirmStep: string,
): Flow<{ demand: Reply; final: Reply }> {
  const demand = yield request;
  if (demand.status !== 409 || codeOf(demand) !== 'confirmation_required') return { demand, final: demand };
  const body = asRecord(demand.body);
  const header = asString(body.confirmHeader) || 'x-service-confirm';
  const final = yield {
    ...request,
    step: confirmStep,
    headers: { ...request.headers, [header]: asString(body.confirmToken) },
    expect: request.expect.filter((status) => status !== 409),
  };
  return { demand, final };
}

export const agentConfirm: Scenario<AgentData> = {
  name: 'agent_confirm',
  title: 'Agent: request, dry run, confirm',
  description:
    'An agent (X-Agent-Run-Id, -Task, -Model) requests a booking window (POST /bookings, keyed), ' +
    'rehearses POST /bookings/:id/confirm with x-service-dry-run: 1 (applied false), then confirms: ' +
    '409 confirmation_required, and the identical request again with the token and X-Agent-Confirmed-By.',
  vus: 3,
  thresholds: { maxErrorRate: 0.01, maxCheckFailureRate: 0, p95Ms: 300, p99Ms: 600 },
  setup: () => setup(),
  *iteration(data, vu, tools) {
    const agent = {
      'x-agent-run-id': `load-${vu.run}-agent-${vu.vu}`,
      'x-agent-task': 'Book the site visits the customers asked for',
      'x-agent-model': 'load-test',
    };
    // Each VU books on a resource of its own, one hour after another, so windows never clash.
    const start = new Date(Date.parse(data.from) + vu.iteration * HOUR_MS);
    const window = {
      customerId: data.customerId,
      start: start.toISOString(),
      end: new Date(start.getTime() + HOUR_MS).toISOString(),
      resourceId: `load-${vu.run}-crew-${vu.vu}`,
    };
    const key = `load-${vu.run}-bk-${vu.vu}-${vu.iteration}`;
    const requested = yield json('request booking', 'POST', `${API}/bookings`, window, [201], {
      ...agent,
      'idempotency-key': key,
    });
    const bookingId = idOf(requested, 'booking');
    tools.check(
      'the booking is requested',
      asRecord(asRecord(requested.body).booking).status === 'requested',
    );
    if (!bookingId) return;

    const confirm: RequestSpec = {
      step: 'confirm (first call)',
      method: 'POST',
      path: `${API}/bookings/${bookingId}/confirm`,
      headers: { ...agent, 'x-agent-confirmed-by': 'load-test-operator' },
      expect: [409],
    };
    const rehearsal = yield {
      ...confirm,
      step: 'dry-run confirm',
      headers: { ...agent, [DRY_RUN_HEADER]: '1' },
      expect: [200],
    };
    const rehearsed = asRecord(rehearsal.body);
    tools.check('the dry run applied nothing', rehearsed.dryRun === true && rehearsed.applied === false);

    const { demand, final } = yield* withConfirmation(
      { ...confirm, expect: [200, 409] },
      'confirm (with token)',
    );
    tools.check('the first call demands confirmation', codeOf(demand) === 'confirmation_required');
    const booking = asRecord(asRecord(final.body).booking);
    // Had the dry run confirmed, this would be a replay of an already confirmed booking.
    tools.check(
      'the confirmed call confirms',
      booking.status === 'confirmed' &&
        asRecord(final.body).replayed !== true &&
        booking.confirmedVia === 'confirmation',
    );
  },
};
