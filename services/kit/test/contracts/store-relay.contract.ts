// The outbox under concurrency (part of the document store contract, so it runs on every adapter):
// many emitting commits at once get each tenant's seqs without gaps or repeats in commit order,
// and two relays on one store publish each event once, each tenant's in order, one of them at a
// time, while a leader that dies without giving up its lease is replaced once the lease runs out.
// Events go to a real embedded event log in a temporary folder.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedEventLog } from '../../src/events/embedded.ts';
import type { EventLog, EventRecord } from '../../src/events/port.ts';
import { OUTBOX_RELAY_LEASE, startOutboxRelay, type OutboxRelay } from '../../src/outbox/relay.ts';
import { LeaseLost, type DocumentStore, type OutboxEvent, type WriteOp } from '../../src/store/port.ts';
import { consume, uniqueName, waitFor, type Consumer } from './events.contract.ts';

const TENANTS = ['tenant_a', 'tenant_b', 'tenant_c'];

const emitted = (tenantId: string, topic: string, n: number): WriteOp => {
  const event: OutboxEvent = { id: `${tenantId}.${n}`, tenantId, topic, key: tenantId, value: { n } };
  return { op: 'emit', event };
};

/** Each tenant's `n`s in the order first delivered (a repeat, which consumers drop by event id, skipped). */
function firstDeliveries(records: EventRecord[]): Map<string, number[]> {
  const seen = new Set<string>();
  const byTenant = new Map<string, number[]>();
  for (const record of records) {
    const id = record.headers['x-event-id'] ?? '';
    if (seen.has(id)) continue;
    seen.add(id);
    const ns = byTenant.get(record.key) ?? [];
    ns.push((record.value as { n: number }).n);
    byTenant.set(record.key, ns);
  }
  return byTenant;
}

const upTo = (count: number): number[] => Array.from({ length: count }, (_, n) => n);

export function describeRelayContract(store: () => DocumentStore): void {
  describe('outbox under concurrency', () => {
    let dir: string;
    let log: EventLog;
    let topic: string;
    let consumer: Consumer;
    const relays: OutboxRelay[] = [];

    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'fieldops-relay-contract-'));
      log = await openEmbeddedEventLog({ dir, retryBaseMs: 5 });
      topic = uniqueName('contract.events');
      consumer = await consume(log, { group: uniqueName('contract'), topics: [topic] });
    });

    afterEach(async () => {
      for (const relay of relays.splice(0)) await relay.stop();
      await consumer.stop();
      await log.close();
      await rm(dir, { recursive: true, force: true });
    });

    const relay = (options: { leaseMs: number; owner?: string; target?: DocumentStore }): OutboxRelay => {
      const started = startOutboxRelay({
        store: options.target ?? store(),
        log,
        idleMs: 10,
        followMs: 10,
        leaseMs: options.leaseMs,
        ...(options.owner === undefined ? {} : { owner: options.owner }),
        onError: () => {},
      });
      relays.push(started);
      return started;
    };

    /** `count` commits per tenant, each tenant's one after another, the tenants at the same time. */
    const commitSide = (count: number, from = 0): Promise<void[]> =>
      Promise.all(
        TENANTS.map(async (tenantId) => {
          for (const n of upTo(count)) await store().commit(tenantId, [emitted(tenantId, topic, from + n)]);
        }),
      );

    it('gives many concurrent emitting commits consecutive seqs per tenant, a commit its own run', async () => {
      const commits = 20;
      await Promise.all(
        TENANTS.flatMap((tenantId) =>
          upTo(commits).map((n) =>
            store().commit(tenantId, [emitted(tenantId, topic, 2 * n), emitted(tenantId, topic, 2 * n + 1)]),
          ),
        ),
      );
      const pending = await store().pendingOutbox(1000);
      expect(pending).toHaveLength(TENANTS.length * commits * 2);
      for (const tenantId of TENANTS) {
        const mine = pending.filter((record) => record.tenantId === tenantId);
        // Seqs 1…40 in order, each exactly once, and the two events of a commit side by side.
        expect(mine.map((record) => record.seq)).toEqual(upTo(commits * 2).map((n) => n + 1));
        for (let index = 0; index < mine.length; index += 2) {
          const [first, second] = [mine[index]!, mine[index + 1]!];
          expect((second.value as { n: number }).n).toBe((first.value as { n: number }).n + 1);
        }
      }
    });

    it('has two relays on one store publish each event once, each tenant in commit order', async () => {
      relay({ leaseMs: 60_000 });
      relay({ leaseMs: 60_000 });
      const count = 15;
      await commitSide(count);
      await waitFor(() => consumer.records.length >= TENANTS.length * count, 'every event');
      await Promise.all(relays.map((started) => started.drain()));

      const ids = consumer.records.map((record) => record.headers['x-event-id']);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(TENANTS.length * count);
      for (const tenantId of TENANTS)
        expect(firstDeliveries(consumer.records).get(tenantId)).toEqual(upTo(count));
      expect(await store().pendingOutbox(10)).toEqual([]);
    });

    it('replaces a leader that died holding the lease, once the lease runs out', async () => {
      // A leader killed mid-run: it took the lease as a relay does and never renews or releases it.
      expect(await store().acquireLease(OUTBOX_RELAY_LEASE, 'killed-leader', 1_500)).toMatchObject({
        generation: expect.any(Number),
      });
      const successor = relay({ leaseMs: 60_000 });
      expect(await store().acquireLease(OUTBOX_RELAY_LEASE, 'another', 300)).toBeNull();
      await commitSide(5);
      await successor.drain();
      await waitFor(() => consumer.records.length >= TENANTS.length * 5, 'every event');
      for (const tenantId of TENANTS)
        expect(firstDeliveries(consumer.records).get(tenantId)).toEqual(upTo(5));
      // The successor holds the lease now; the dead leader cannot take it back.
      expect(await store().acquireLease(OUTBOX_RELAY_LEASE, 'killed-leader', 300)).toBeNull();
    });

    it('hands the lease over at once when the leader stops, and keeps each tenant in order', async () => {
      const first = relay({ leaseMs: 60_000, owner: 'first' });
      await commitSide(4);
      await first.drain();
      const second = relay({ leaseMs: 60_000, owner: 'second' });
      await first.stop();
      await commitSide(4, 4);
      await second.drain();
      await waitFor(() => consumer.records.length >= TENANTS.length * 8, 'every event');
      for (const tenantId of TENANTS)
        expect(firstDeliveries(consumer.records).get(tenantId)).toEqual(upTo(8));
      expect(await store().acquireLease(OUTBOX_RELAY_LEASE, 'first', 60_000)).toBeNull();
    });

    it('fences marks by the lease generation: a relay that lost the lease marks nothing', async () => {
      await store().commit('tenant_a', [emitted('tenant_a', topic, 0)]);
      const first = await store().acquireLease(OUTBOX_RELAY_LEASE, 'old', 60_000);
      expect(await store().acquireLease(OUTBOX_RELAY_LEASE, 'old', 60_000)).toEqual(first);
      await store().releaseLease(OUTBOX_RELAY_LEASE, 'old');
      const second = await store().acquireLease(OUTBOX_RELAY_LEASE, 'new', 60_000);
      expect(second!.generation).toBeGreaterThan(first!.generation);
      const records = await store().pendingOutbox(10);
      const stale = { name: OUTBOX_RELAY_LEASE, owner: 'old', generation: first!.generation };
      await expect(store().markPublished(records, stale)).rejects.toBeInstanceOf(LeaseLost);
      expect(await store().pendingOutbox(10)).toHaveLength(1);
      const current = { name: OUTBOX_RELAY_LEASE, owner: 'new', generation: second!.generation };
      await store().markPublished(records, current);
      expect(await store().pendingOutbox(10)).toEqual([]);
      await store().releaseLease(OUTBOX_RELAY_LEASE, 'new');
    });

    it('refuses a lease without a name, an owner or a whole positive duration', async () => {
      await expect(store().acquireLease('', 'me', 100)).rejects.toThrow(/name/);
      await expect(store().acquireLease(OUTBOX_RELAY_LEASE, '', 100)).rejects.toThrow(/owner/);
      await expect(store().acquireLease(OUTBOX_RELAY_LEASE, 'me', 0)).rejects.toThrow(/milliseconds/);
      await expect(store().acquireLease(OUTBOX_RELAY_LEASE, 'me', 1.5)).rejects.toThrow(/milliseconds/);
    });
  });
}
