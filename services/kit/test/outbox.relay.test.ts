// The outbox relay against the real embedded store and each real event log: the embedded one, and
// Kafka when KAFKA_BROKERS is set (topics of four partitions, unique per test, so it shares the
// broker with anything else). Failures are injected by thin wrappers that delegate to the real
// adapters, so what is published and marked is real.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedEventLog } from '../src/events/embedded.ts';
import { openKafkaEventLog } from '../src/events/kafka/kafka-log.ts';
import type { EventLog, EventMessage } from '../src/events/port.ts';
import { writeFile, mkdir } from 'node:fs/promises';
import { OUTBOX_RELAY_LEASE, startOutboxRelay } from '../src/outbox/relay.ts';
import { frameLine } from '../src/store/framing.ts';
import { LeaseLost } from '../src/store/port.ts';
import type { OutboxRelay, OutboxRelayOptions } from '../src/outbox/relay.ts';
import { openEmbeddedStore } from '../src/store/embedded.ts';
import type { DocumentStore } from '../src/store/port.ts';
import { consume, uniqueName, waitFor } from './contracts/events.contract.ts';
import type { Consumer } from './contracts/events.contract.ts';

const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((broker) => broker.trim())
  .filter((broker) => broker !== '');

/** Each event log the relay runs on here; Kafka only with KAFKA_BROKERS (then it must answer). */
const eventLogs: [string, (dir: string) => Promise<EventLog>][] = [
  ['embedded event log', (dir) => openEmbeddedEventLog({ dir: join(dir, 'events'), retryBaseMs: 5 })],
  ...(brokers.length > 0
    ? ([
        [
          'kafka event log',
          () =>
            openKafkaEventLog({
              brokers,
              clientId: 'fieldops-relay-test',
              retryBaseMs: 5,
              maxWaitTimeMs: 200,
              partitionsFor: () => 4,
            }),
        ],
      ] as [string, (dir: string) => Promise<EventLog>][])
    : []),
];

/** The real adapter with some methods replaced; everything else goes to the adapter itself. */
function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(real, property) {
      if (Object.hasOwn(overrides, property)) return Reflect.get(overrides, property);
      const value: unknown = Reflect.get(real, property);
      return typeof value === 'function' ? value.bind(real) : value;
    },
  });
}

describe.each(eventLogs)('outbox relay on the %s', (_name, openLog) => {
  let CRM: string;
  let GATEWAY: string;
  let dir: string;
  let store: DocumentStore;
  let log: EventLog;
  const relays: OutboxRelay[] = [];
  const consumers: Consumer[] = [];
  let eventCount = 0;

  const start = (options: Partial<OutboxRelayOptions> = {}): OutboxRelay => {
    const relay = startOutboxRelay({ store, log, idleMs: 20, ...options });
    relays.push(relay);
    return relay;
  };
  const watch = async (topic: string): Promise<Consumer> => {
    const consumer = await consume(log, { group: uniqueName(`watch-${consumers.length}`), topics: [topic] });
    consumers.push(consumer);
    return consumer;
  };
  /** Commits one event per n, in one commit; returns their ids. */
  const emit = async (tenantId: string, topic: string, ns: number[]): Promise<string[]> => {
    const events = ns.map((n) => ({
      id: `evt_${(eventCount += 1)}`,
      tenantId,
      topic,
      key: tenantId,
      value: { n },
    }));
    await store.commit(
      tenantId,
      events.map((event) => ({ op: 'emit', event })),
    );
    return events.map((event) => event.id);
  };
  const pending = async (): Promise<number[]> => (await store.pendingOutbox(1000)).map((event) => event.seq);

  beforeEach(async () => {
    CRM = uniqueName('fieldops.crm.events');
    GATEWAY = uniqueName('fieldops.gateway.events');
    dir = mkdtempSync(join(tmpdir(), 'fieldops-relay-'));
    store = await openEmbeddedStore({ dir: join(dir, 'store') });
    log = await openLog(dir);
  });

  afterEach(async () => {
    for (const relay of relays.splice(0)) await relay.stop();
    for (const consumer of consumers.splice(0)) await consumer.stop();
    await log.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('publishes in outbox order, per topic, keyed by tenant, then marks the events published', async () => {
    const crm = await watch(CRM);
    const gateway = await watch(GATEWAY);
    const ids = [
      ...(await emit('ten_a', CRM, [0, 1])),
      ...(await emit('ten_b', GATEWAY, [10])),
      ...(await emit('ten_b', CRM, [2])),
      ...(await emit('ten_a', GATEWAY, [11, 12])),
      ...(await emit('ten_a', CRM, [3])),
    ];
    await start({ batchSize: 2 }).drain();

    expect(await pending()).toEqual([]);
    await waitFor(() => crm.records.length >= 4 && gateway.records.length >= 3, 'every event');
    // The order a log promises is per key (a tenant's events live on one partition).
    const nsOf = (consumer: Consumer, key: string): number[] =>
      consumer.records
        .filter((record) => record.key === key)
        .map((record) => (record.value as { n: number }).n);
    expect(nsOf(crm, 'ten_a')).toEqual([0, 1, 3]);
    expect(nsOf(crm, 'ten_b')).toEqual([2]);
    expect(nsOf(gateway, 'ten_a')).toEqual([11, 12]);
    expect(nsOf(gateway, 'ten_b')).toEqual([10]);
    const published = [...crm.records, ...gateway.records];
    expect(published.map((record) => record.headers['x-event-id']).sort()).toEqual([...ids].sort());
    expect(crm.records.find((record) => record.key === 'ten_b')?.headers['x-tenant-id']).toBe('ten_b');
  });

  it('is woken by a commit rather than by its poll', async () => {
    const crm = await watch(CRM);
    const relay = start({ idleMs: 60_000 });
    await relay.drain();
    await emit('ten_a', CRM, [0]);
    await waitFor(() => crm.records.length >= 1, 'the event', 10_000);
  });

  it('polls when no wake-up comes', async () => {
    const crm = await watch(CRM);
    start({ store: overriding(store, { onOutbox: () => () => {} }), idleMs: 20 });
    await emit('ten_a', CRM, [0]);
    await waitFor(() => crm.records.length >= 1, 'the event', 10_000);
  });

  it('retries a failing publish with backoff and marks nothing it did not publish', async () => {
    const crm = await watch(CRM);
    let down = true;
    const errors: unknown[] = [];
    const flaky = overriding(log, {
      publish: async (topic, messages) => {
        if (down) throw new Error('log unavailable');
        await log.publish(topic, messages);
      },
    });
    const relay = start({ log: flaky, onError: (err) => errors.push(err) });
    await emit('ten_a', CRM, [0, 1]);
    await waitFor(() => errors.length >= 3, 'a few failed attempts');

    expect(await pending()).toHaveLength(2);
    expect(crm.records).toEqual([]);
    down = false;
    await relay.drain();
    await emit('ten_a', CRM, [2]);
    await relay.drain();
    await waitFor(() => crm.records.length >= 3, 'every event');
    expect(crm.ns()).toEqual([0, 1, 2]);
    expect(errors.every((err) => err instanceof Error && err.message === 'log unavailable')).toBe(true);
  });

  it('retries a failed mark without publishing again', async () => {
    const crm = await watch(CRM);
    let failures = 1;
    const errors: unknown[] = [];
    const forgetful = overriding(store, {
      markPublished: async (seqs, fence) => {
        if (failures > 0) {
          failures -= 1;
          throw new Error('store busy');
        }
        await store.markPublished(seqs, fence);
      },
    });
    const relay = start({ store: forgetful, onError: (err) => errors.push(err) });
    await emit('ten_a', CRM, [0, 1]);
    await relay.drain();
    await emit('ten_a', CRM, [2]);
    await relay.drain();
    await waitFor(() => crm.records.length >= 3, 'every event');
    expect(crm.ns()).toEqual([0, 1, 2]);
    expect(errors).toHaveLength(1);
    expect(await pending()).toEqual([]);
  });

  it('publishes again after a crash between publish and mark: at least once, same event id', async () => {
    const crm = await watch(CRM);
    const neverMarks = overriding(store, {
      markPublished: async () => {
        throw new Error('crashed before marking');
      },
    });
    const crashed = start({ store: neverMarks, onError: () => {} });
    const [id] = await emit('ten_a', CRM, [0]);
    await waitFor(() => crm.records.length >= 1, 'the first publish');
    await crashed.stop();
    expect(await pending()).toHaveLength(1);

    await start().drain();
    await waitFor(() => crm.records.length >= 2, 'the republish');
    expect(crm.records.map((record) => record.headers['x-event-id'])).toEqual([id, id]);
    expect(await pending()).toEqual([]);
  });

  it('publishes what was pending before it started, also across a store restart', async () => {
    await emit('ten_a', CRM, [0, 1]);
    await store.close();
    store = await openEmbeddedStore({ dir: join(dir, 'store') });
    const crm = await watch(CRM);
    await start().drain();
    await waitFor(() => crm.records.length >= 2, 'both events');
    expect(crm.ns()).toEqual([0, 1]);
  });

  it('drains at once when nothing is pending', async () => {
    await start({ idleMs: 60_000 }).drain();
  });

  it('rejects a drain it could not finish when stopped, and leaves the events pending', async () => {
    const down = overriding(log, {
      publish: async () => {
        throw new Error('log unavailable');
      },
    });
    const stuck = start({ log: down, onError: () => {} });
    await emit('ten_a', CRM, [0]);
    const draining = stuck.drain();
    await stuck.stop();
    await expect(draining).rejects.toThrow(/stopped before draining/);
    await expect(stuck.drain()).rejects.toThrow(/stopped/);
    expect(await pending()).toHaveLength(1);

    await start().drain();
    expect(await pending()).toEqual([]);
  });

  it('leaves the store and the log open when stopped', async () => {
    const relay = start();
    await relay.stop();
    await relay.stop();
    await emit('ten_a', CRM, [0]);
    expect(await pending()).toHaveLength(1);
    await log.publish(CRM, [{ key: 'k', value: { n: 1 } }]);
  });
  describe('fair turns', () => {
    it("publishes a tenant's one event within the first round, ahead of another tenant's big import", async () => {
      const crm = await watch(CRM);
      const batches: EventMessage[][] = [];
      const recording = overriding(log, {
        publish: async (topic, messages) => {
          batches.push(messages);
          await log.publish(topic, messages);
        },
      });
      await emit(
        'ten_big',
        CRM,
        Array.from({ length: 250 }, (_, n) => n),
      );
      await emit('ten_small', CRM, [1000]);
      await start({ log: recording, batchSize: 100 }).drain();

      expect(batches[0]?.map((message) => message.key)).toContain('ten_small');
      await waitFor(() => crm.records.length >= 251, 'every event');
      const big = crm.records.filter((record) => record.key === 'ten_big').map((record) => record.value);
      expect(big).toEqual(Array.from({ length: 250 }, (_, n) => ({ n })));
    });
  });

  describe('fencing', () => {
    it('a relay that loses its lease mid-publish marks nothing and publishes nothing more', async () => {
      const crm = await watch(CRM);
      const owner = 'relay-that-loses';
      let publishes = 0;
      const errors: unknown[] = [];
      let leadsAfterLoss = 0;
      let lost = false;
      // While the first batch is being published, another relay takes the lease over.
      const usurped = overriding(log, {
        publish: async (topic, messages) => {
          publishes += 1;
          await log.publish(topic, messages);
          if (!lost) {
            await store.releaseLease(OUTBOX_RELAY_LEASE, owner);
            expect(await store.acquireLease(OUTBOX_RELAY_LEASE, 'successor', 600_000)).not.toBeNull();
            lost = true;
          }
        },
      });
      const counting = overriding(store, {
        acquireLease: async (name, who, ttlMs) => {
          if (lost) leadsAfterLoss += 1;
          return store.acquireLease(name, who, ttlMs);
        },
      });
      const options = { owner, batchSize: 2, followMs: 5, onError: (err: unknown) => errors.push(err) };
      start({ store: counting, log: usurped, ...options });
      await emit('ten_a', CRM, [0, 1, 2, 3, 4]);
      await waitFor(() => leadsAfterLoss >= 3, 'the relay asking for the lease again');

      expect(publishes).toBe(1);
      expect(errors.some((err) => err instanceof LeaseLost)).toBe(true);
      // The batch it published is not marked: the successor publishes it again (at least once).
      expect(await pending()).toEqual([1, 2, 3, 4, 5]);
      await waitFor(() => crm.records.length >= 2, 'the first batch');
    });
  });

  describe('upgrade from the global outbox counter', () => {
    it('publishes every pending event of the previous format exactly once, in order per tenant', async () => {
      // What the previous version wrote: one global seq for every tenant, some events published
      // (named by bare seq), the rest pending.
      const event = (tenantId: string, n: number, seq: number) => ({
        id: `old_${seq}`,
        tenantId,
        topic: CRM,
        key: tenantId,
        value: { n },
        seq,
      });
      const tenantOf = (seq: number): string => (seq % 3 === 0 ? 'ten_b' : 'ten_a');
      const lines: object[] = [];
      const perTenant = new Map<string, number>();
      for (let seq = 1; seq <= 30; seq += 1) {
        const tenantId = tenantOf(seq);
        const n = perTenant.get(tenantId) ?? 0;
        perTenant.set(tenantId, n + 1);
        lines.push({ s: seq, t: tenantId, w: [], e: [event(tenantId, n, seq)] });
      }
      lines.push({ s: 31, p: [1, 2, 3] });
      const oldDir = join(dir, 'old-store');
      await mkdir(oldDir, { recursive: true });
      await writeFile(join(oldDir, 'journal.log'), Buffer.concat(lines.map((line) => frameLine(line))));
      await store.close();
      store = await openEmbeddedStore({ dir: oldDir });

      const crm = await watch(CRM);
      const relay = start({ batchSize: 4 });
      await relay.drain();
      // New events after the upgrade count on above the old seqs and follow them.
      await emit('ten_a', CRM, [100, 101]);
      await emit('ten_b', CRM, [100]);
      await relay.drain();
      await waitFor(() => crm.records.length >= 30, 'every pending event');
      expect(await pending()).toEqual([]);

      const ids = crm.records.map((record) => record.headers['x-event-id']);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(30);
      const nsOf = (key: string): number[] =>
        crm.records.filter((record) => record.key === key).map((record) => (record.value as { n: number }).n);
      const a = Array.from({ length: 20 }, (_, n) => n).slice(2);
      expect(nsOf('ten_a')).toEqual([...a, 100, 101]);
      expect(nsOf('ten_b')).toEqual([...Array.from({ length: 10 }, (_, n) => n).slice(1), 100]);
    });
  });
});
