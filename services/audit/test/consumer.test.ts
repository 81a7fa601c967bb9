import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestContext } from '@fieldops/kit';
import {
  domainEvent,
  topicOf,
  openEmbeddedEventLog,
  type DomainEvent,
  type EventLog,
  type EventRecord,
  type Subscription,
} from '@fieldops/kit/events';
import { openEmbeddedStore, type DocumentStore } from '@fieldops/kit/store';
import { isDomainEvent } from '../src/consumer.ts';
import { openAuditDomain, type AuditDomain } from '../src/index.ts';

const CRM = topicOf('crm');
const GATEWAY = topicOf('gateway');

let dir: string;
let store: DocumentStore;
let log: EventLog;
let domain: AuditDomain;
let consumer: Subscription | undefined;
let warnings: Record<string, unknown>[];

/** Opens (or reopens, as after a process restart) the store, the log and the audit domain on `dir`. */
async function open(): Promise<void> {
  store = await openEmbeddedStore({ dir: join(dir, 'store'), fsync: 'never' });
  // Fast retries so a rejected record reaches the DLQ within the test.
  log = await openEmbeddedEventLog({ dir: join(dir, 'log'), fsync: 'never', retryBaseMs: 1 });
  domain = await openAuditDomain({ store, log, logger: { warn: (details) => warnings.push(details) } });
}

async function close(): Promise<void> {
  await consumer?.stop();
  consumer = undefined;
  await log.close();
  await store.close();
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'audit-consumer-'));
  warnings = [];
  await open();
});

afterEach(async () => {
  await close();
  await rm(dir, { recursive: true, force: true });
});

function event(tenantId: string, n: number): DomainEvent {
  const ctx: RequestContext = {
    requestId: `req_${n}`,
    tenant: { id: tenantId, currency: 'USD', defaultVertical: 'roofing' },
    principal: { kind: 'token', tokenId: 'tok_1', role: 'Manager', memberId: '' },
    idempotencyKey: `op_${n}`,
    agent: { runId: 'run_1', task: 'sync', model: 'm', confirmedBy: '' },
    dryRun: false,
    operation: 'createLead',
  };
  return domainEvent('crm', ctx, 'lead.created', { kind: 'lead', id: `lead_${n}` }, {}).value as DomainEvent;
}

const publish = (topic: string, events: DomainEvent[]): Promise<void> =>
  log.publish(
    topic,
    events.map((value) => ({ key: value.tenantId, value })),
  );

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Every entry of the tenant's trail (the tests stay under one page). */
async function entries(tenantId: string) {
  return (await domain.ledger.list(tenantId, { limit: 100 })).items;
}

const hasEntries = (tenantId: string, count: number) => async () => (await entries(tenantId)).length >= count;

async function expectChain(tenantId: string, events: DomainEvent[]): Promise<void> {
  const recorded = await entries(tenantId);
  expect(recorded.map((e) => e.eventId).sort()).toEqual(events.map((e) => e.id).sort());
  expect(await domain.ledger.verify(tenantId)).toMatchObject({ valid: true, length: events.length });
}

async function readDeadLetters(topic: string, count: number): Promise<EventRecord[]> {
  const records: EventRecord[] = [];
  const reader = await log.subscribe({
    group: 'test-dlq-reader',
    topics: [`${topic}.dlq`],
    handle: async (record) => {
      records.push(record);
    },
  });
  await until(async () => records.length >= count, 'dead letters');
  await reader.stop();
  return records;
}

it('records the events published on every write topic, once each, in one chain per tenant', async () => {
  consumer = await domain.startConsumer();
  const a = Array.from({ length: 10 }, (_, n) => event('ten_a', n));
  const b = Array.from({ length: 6 }, (_, n) => event('ten_b', n));
  await publish(CRM, [...a.slice(0, 5), ...b.slice(0, 3)]);
  await publish(GATEWAY, [...a.slice(5), ...b.slice(3)]);
  // At least once: the same envelopes again, as a relay that crashed before marking them published would.
  await publish(CRM, a.slice(0, 3));
  await until(hasEntries('ten_a', 10), 'ten_a entries');
  await until(hasEntries('ten_b', 6), 'ten_b entries');
  // Give the redelivered envelopes time to be consumed as well, then count again.
  await publish(CRM, [event('ten_c', 0)]);
  await until(hasEntries('ten_c', 1), 'the marker event');
  await expectChain('ten_a', a);
  await expectChain('ten_b', b);
});

it('sends a record that is not a domain event to the DLQ after logging it, and carries on', async () => {
  consumer = await domain.startConsumer();
  await log.publish(CRM, [
    { key: 'ten_a', value: { hello: 'world' } },
    { key: 'ten_a', value: 'lead.created' },
  ]);
  const good = event('ten_a', 1);
  await publish(CRM, [good]);
  await until(hasEntries('ten_a', 1), 'the valid event after the malformed ones');
  const dead = await readDeadLetters(CRM, 2);
  expect(dead.map((r) => r.value)).toEqual([{ hello: 'world' }, 'lead.created']);
  expect(dead[0]?.headers['x-error']).toMatch(/not a domain event/);
  expect(warnings).toContainEqual(expect.objectContaining({ topic: CRM, offset: 0, key: 'ten_a' }));
  await expectChain('ten_a', [good]);
});

it('adds nothing when restarted, also after a crash between append and offset commit', async () => {
  const first = Array.from({ length: 5 }, (_, n) => event('ten_a', n));
  // As if an earlier consumer appended these and died before committing their offsets.
  for (const evt of first.slice(0, 3)) await domain.ledger.append(evt);
  await publish(CRM, first);
  consumer = await domain.startConsumer();
  await until(hasEntries('ten_a', 5), 'the first batch');
  await expectChain('ten_a', first);

  // A stop and start of the consumer in the same process.
  await consumer.stop();
  consumer = await domain.startConsumer();
  const second = [event('ten_a', 5)];
  await publish(GATEWAY, second);
  await until(hasEntries('ten_a', 6), 'the second batch');

  // A whole process restart: everything reopened from disk.
  await close();
  await open();
  consumer = await domain.startConsumer();
  const third = [event('ten_a', 6)];
  await publish(CRM, third);
  await until(hasEntries('ten_a', 7), 'the third batch');
  await expectChain('ten_a', [...first, ...second, ...third]);
});

describe('isDomainEvent', () => {
  it('accepts the envelope services emit and refuses anything missing what an entry is made of', () => {
    const valid = event('ten_a', 1);
    expect(isDomainEvent(valid)).toBe(true);
    expect(isDomainEvent(null)).toBe(false);
    expect(isDomainEvent({ ...valid, tenantId: '' })).toBe(false);
    expect(isDomainEvent({ ...valid, resource: { kind: 'lead' } })).toBe(false);
    expect(isDomainEvent({ ...valid, data: undefined })).toBe(false);
    expect(isDomainEvent({ ...valid, context: { ...valid.context, agent: undefined } })).toBe(false);
    expect(
      isDomainEvent({ ...valid, context: { ...valid.context, principal: { kind: 'token', tokenId: 1 } } }),
    ).toBe(false);
  });
});
