// The change-feed projection against the real embedded store and event log: a redelivered event is
// recorded once, racing appends get consecutive sequence numbers, the feed survives a restart, and
// a record that is not a domain event goes to the DLQ without holding up the rest.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  domainEvent,
  topicOf,
  type DomainEvent,
  openEmbeddedEventLog,
  type EventLog,
  type Subscription,
} from '@fieldops/kit/events';
import { openEmbeddedStore, type DocumentStore } from '@fieldops/kit/store';
import type { RequestContext } from '@fieldops/kit';
import { startChangeConsumer } from '../../src/sync/change-consumer.ts';
import { openChangeFeed, type ChangeFeed, type ChangeVisibility } from '../../src/sync/change-feed.ts';
import { changeOf } from '../../src/sync/change-of-event.ts';

const CRM = topicOf('crm');
const EVERYTHING: ChangeVisibility = {
  kinds: ['lead', 'record'],
  projectKinds: ['record'],
  projectIds: null,
};

let dir: string;
let store: DocumentStore;
let log: EventLog;
let feed: ChangeFeed;
let consumer: Subscription | undefined;

async function open(): Promise<void> {
  store = await openEmbeddedStore({ dir: join(dir, 'store'), fsync: 'never' });
  log = await openEmbeddedEventLog({ dir: join(dir, 'log'), fsync: 'never', retryBaseMs: 1 });
  feed = await openChangeFeed(store);
}

async function close(): Promise<void> {
  await consumer?.stop();
  consumer = undefined;
  await log.close();
  await store.close();
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'change-feed-'));
  await open();
});
afterEach(async () => {
  await close();
  await rm(dir, { recursive: true, force: true });
});

function event(tenantId: string, type: string, id: string, data: Record<string, unknown> = {}): DomainEvent {
  const ctx: RequestContext = {
    requestId: 'req_1',
    tenant: { id: tenantId, currency: 'USD', defaultVertical: 'roofing' },
    principal: { kind: 'token', tokenId: 'tok_1', role: 'Manager', memberId: '' },
    idempotencyKey: '',
    agent: { runId: '', task: '', model: '', confirmedBy: '' },
    dryRun: false,
    operation: 'test',
  };
  const kind = type.split('.')[0] ?? '';
  return domainEvent('crm', ctx, type, { kind, id }, data).value as DomainEvent;
}

const until = async (check: () => Promise<boolean>): Promise<void> => {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('change feed projection', () => {
  it('records a redelivered event once', async () => {
    const created = event('ten_a', 'lead.created', 'lead_1', { lead: { etag: 'lead_1:v1' } });
    expect(await feed.append('ten_a', changeOf(created))).toBe(true);
    expect(await feed.append('ten_a', changeOf(created))).toBe(false);
    const page = await feed.read('ten_a', 0, 10, EVERYTHING);
    expect(page.items.map((c) => [c.seq, c.id, c.action, c.etag])).toEqual([
      [1, 'lead_1', 'created', 'lead_1:v1'],
    ]);
    expect(page.headSeq).toBe(1);
  });

  it('gives racing appends consecutive sequence numbers, per tenant', async () => {
    const events = Array.from({ length: 20 }, (_, n) => event('ten_a', 'lead.updated', `lead_${n}`));
    await Promise.all([
      ...events.map((e) => feed.append('ten_a', changeOf(e))),
      feed.append('ten_b', changeOf(event('ten_b', 'lead.created', 'lead_b'))),
    ]);
    const page = await feed.read('ten_a', 0, 100, EVERYTHING);
    expect(page.items.map((c) => c.seq)).toEqual(Array.from({ length: 20 }, (_, n) => n + 1));
    expect(new Set(page.items.map((c) => c.id)).size).toBe(20);
    expect((await feed.read('ten_b', 0, 100, EVERYTHING)).items.map((c) => [c.seq, c.id])).toEqual([
      [1, 'lead_b'],
    ]);
  });

  it('filters by kind and, for project kinds, by project', async () => {
    await feed.append('ten_a', changeOf(event('ten_a', 'lead.created', 'lead_1')));
    await feed.append(
      'ten_a',
      changeOf(event('ten_a', 'record.created', 'rec_1', { record: { projectId: 'proj_1' } })),
    );
    await feed.append(
      'ten_a',
      changeOf(event('ten_a', 'record.voided', 'rec_2', { record: { projectId: 'proj_2' } })),
    );
    const restricted = { ...EVERYTHING, projectIds: ['proj_2'] };
    expect((await feed.read('ten_a', 0, 10, restricted)).items.map((c) => `${c.id} ${c.action}`)).toEqual([
      'lead_1 created',
      'rec_2 voided',
    ]);
    const recordsOnly = { ...EVERYTHING, kinds: ['record'] };
    expect((await feed.read('ten_a', 1, 10, recordsOnly)).items.map((c) => c.id)).toEqual(['rec_1', 'rec_2']);
  });

  it('is fed by the event log, keeps what it recorded across a restart and dedupes the replay', async () => {
    await log.ensureTopic(CRM);
    const warnings: unknown[] = [];
    const logger = { warn: (details: unknown) => warnings.push(details) };
    consumer = await startChangeConsumer({ log, feed, logger });
    const first = event('ten_a', 'lead.created', 'lead_1');
    await log.publish(CRM, [
      { key: 'ten_a', value: first },
      { key: 'ten_a', value: { not: 'an event' } },
      { key: 'ten_a', value: event('ten_a', 'lead.updated', 'lead_1') },
    ]);
    await until(async () => (await feed.headSeq('ten_a')) === 2);
    expect(warnings).toHaveLength(1);

    await close();
    await open();
    consumer = await startChangeConsumer({ log, feed, logger });
    // The outbox relay may publish an event again after a crash: it must not appear twice.
    await log.publish(CRM, [
      { key: 'ten_a', value: first },
      { key: 'ten_a', value: event('ten_a', 'lead.deleted', 'lead_1') },
    ]);
    await until(async () => (await feed.headSeq('ten_a')) === 3);
    const page = await feed.read('ten_a', 0, 10, EVERYTHING);
    expect(page.items.map((c) => `${c.seq} ${c.action}`)).toEqual(['1 created', '2 updated', '3 deleted']);
  });
});
