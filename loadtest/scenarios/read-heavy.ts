// A dashboard or sync client: pages through the lead inbox, searches it, opens leads and customers,
// reads its own token, and captures one lead for every eight reads.
import { API, asRecord, asString, get, idOf, json, send, type Flow, type Reply } from './http.ts';
import { pick, seedKey, type Scenario, type SetupContext, type SetupOutcome } from './scenario.ts';

export const SEED_LEADS = 60;
export const SEED_CUSTOMERS = 10;

export interface ReadHeavyData {
  leadIds: string[];
  customerIds: string[];
}

const SEARCH_WORDS = ['roof', 'survey', 'stockpile', 'inspection', 'Friday'];

export function seedLead(i: number): Record<string, unknown> {
  return {
    name: `Load Seed Lead ${i}`,
    email: `load-seed-${i}@example.com`,
    phone: `+1 555 02${String(i).padStart(4, '0')}`,
    message: `Roof survey request ${i}: two buildings, stockpile inspection, photos wanted by Friday.`,
    source: 'load-test',
    opId: seedKey('lead', i),
  };
}

function* seed(): Flow<SetupOutcome<ReadHeavyData>> {
  const leadIds: string[] = [];
  for (let i = 0; i < SEED_LEADS; i++) {
    const reply = yield* send(json('seed lead', 'POST', `${API}/leads`, seedLead(i), [200, 201]));
    leadIds.push(idOf(reply, 'lead'));
  }
  const customerIds: string[] = [];
  for (let i = 0; i < SEED_CUSTOMERS; i++) {
    const body = {
      name: `Load Seed Customer ${i}`,
      email: `load-customer-${i}@example.com`,
      company: `Seed Aggregates ${i}`,
      opId: seedKey('customer', i),
    };
    const reply = yield* send(json('seed customer', 'POST', `${API}/customers`, body, [200, 201]));
    customerIds.push(idOf(reply, 'customer'));
  }
  return { data: { leadIds, customerIds } };
}

const itemsOf = (reply: Reply): unknown[] => {
  const items = asRecord(reply.body).items;
  return Array.isArray(items) ? items : [];
};

export const readHeavy: Scenario<ReadHeavyData> = {
  name: 'read_heavy',
  title: 'Read-heavy client',
  description:
    'Pages through GET /leads (first page, then the next by cursor), searches and filters it, ' +
    'opens a lead and a customer, lists customers and reads GET /me; one keyed POST /leads per ' +
    'eight reads.',
  vus: 10,
  thresholds: { maxErrorRate: 0.01, maxCheckFailureRate: 0.01, p95Ms: 250, p99Ms: 500 },
  setup: (_ctx: SetupContext) => seed(),
  *iteration(data, vu, tools) {
    const n = vu.vu * 7919 + vu.iteration;
    const first = yield get('list leads', `${API}/leads?limit=50`);
    tools.check('a page of leads', itemsOf(first).length > 0);
    const cursor = asString(asRecord(first.body).nextCursor);
    if (cursor) {
      const next = yield get(
        'next page of leads',
        `${API}/leads?limit=50&cursor=${encodeURIComponent(cursor)}`,
      );
      tools.check('the next page', itemsOf(next).length > 0);
    }
    const word = pick(SEARCH_WORDS, n);
    const found = yield get('search leads', `${API}/leads?q=${encodeURIComponent(word)}&limit=20`);
    tools.check('search finds seeded leads', itemsOf(found).length > 0);
    yield get('leads by status', `${API}/leads?status=New&limit=20`);
    const lead = yield get('read lead', `${API}/leads/${pick(data.leadIds, n)}`);
    tools.check('a lead read carries its etag', asString(asRecord(lead.body).etag) !== '');
    yield get('list customers', `${API}/customers?limit=20`);
    const customer = yield get('read customer', `${API}/customers/${pick(data.customerIds, n)}`);
    tools.check('a customer read', idOf(customer, 'customer') !== '');
    yield get('me', `${API}/me`);
    const key = `load-${vu.run}-read-${vu.vu}-${vu.iteration}`;
    const body = { name: `Load Reader Lead ${vu.vu}-${vu.iteration}`, email: `${key}@example.com` };
    const created = yield json('capture lead', 'POST', `${API}/leads`, body, [201], {
      'idempotency-key': key,
    });
    tools.check('a captured lead', idOf(created, 'lead') !== '');
  },
};
