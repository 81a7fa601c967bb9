// A client that writes exactly once: every write carries a key (the Idempotency-Key header for
// leads, opId in the body for customers) and is sent twice, as a client retrying after a lost
// answer would. The first answer is 201, the replay 200 with replayed: true and the same record.
import { API, asRecord, idOf, json, type Flow, type Reply } from './http.ts';
import type { Scenario } from './scenario.ts';

const replayed = (reply: Reply): boolean => asRecord(reply.body).replayed === true;

export const keyedWrites: Scenario<Record<string, never>> = {
  name: 'keyed_writes',
  title: 'Keyed writes with replays',
  description:
    'POST /leads with a fresh Idempotency-Key, then the same request again (a replay: 200, ' +
    'replayed true, the same lead); POST /customers with a fresh opId in the body, then again.',
  vus: 5,
  thresholds: { maxErrorRate: 0.01, maxCheckFailureRate: 0, p95Ms: 300, p99Ms: 600 },
  // eslint-disable-next-line require-yield -- nothing to seed; a flow all the same
  *setup(): Flow<{ data: Record<string, never> }> {
    return { data: {} };
  },
  *iteration(_data, vu, tools) {
    const key = `load-${vu.run}-w-${vu.vu}-${vu.iteration}`;
    const lead = { name: `Load Writer ${vu.vu}-${vu.iteration}`, email: `${key}@example.com` };
    const headers = { 'idempotency-key': key };
    const created = yield json('create lead (keyed)', 'POST', `${API}/leads`, lead, [201], headers);
    const replay = yield json('replay lead', 'POST', `${API}/leads`, lead, [200], headers);
    tools.check('a lead replay is marked replayed', replayed(replay));
    tools.check('a lead replay returns the same lead', idOf(replay, 'lead') === idOf(created, 'lead'));

    const customer = { name: `Load Customer ${vu.vu}-${vu.iteration}`, opId: `${key}-c` };
    const first = yield json('create customer (opId)', 'POST', `${API}/customers`, customer, [201]);
    const again = yield json('replay customer', 'POST', `${API}/customers`, customer, [200]);
    tools.check('a customer replay is marked replayed', replayed(again));
    tools.check(
      'a customer replay returns the same customer',
      idOf(again, 'customer') === idOf(first, 'customer'),
    );
  },
};
