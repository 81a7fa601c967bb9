// The document store contract against a real MongoDB replica set (MONGODB_URI), plus what only the
// MongoDB adapter promises: the indexes it builds, the outbox tail that wakes other processes'
// relays, and a relay moving committed events onto the event log.
// Run with `npm run test:adapters` (docs/production-adapters.md).
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { openEmbeddedEventLog } from '../src/events/embedded.ts';
import { startOutboxRelay } from '../src/outbox/relay.ts';
import { tenantQuery } from '../src/store/mongo/filter-query.ts';
import { guardUniqueLookups } from '../src/store/mongo/indexes.ts';
import { openMongoStore } from '../src/store/mongo/mongo-store.ts';
import { COUNTERS_COLLECTION, OUTBOX_COLLECTION } from '../src/store/mongo/schema.ts';
import type { DocumentStore, WriteOp } from '../src/store/port.ts';
import {
  findIdempotencyRecord,
  IDEMPOTENCY_COLLECTION,
  idempotencyCollectionSpec,
  insertIdempotencyRecord,
} from '../src/write/idempotency-record.ts';
import { consume, waitFor } from './contracts/events.contract.ts';
import { describeStoreContract } from './contracts/store.contract.ts';

const uri = process.env.MONGODB_URI ?? '';
// Without MONGODB_URI the suite shows up as skipped, with the reason in its title. With it set the
// suite always runs, so an unreachable server fails instead of silently skipping.
const describeWithMongo = uri ? describe : describe.skip;
const suiteTitle = uri ? 'mongodb store' : 'mongodb store (skipped: MONGODB_URI is not set)';

const idempotencyFields = {
  key: 'idem-key-1',
  operation: 'leads.create',
  fingerprint: 'sha256:0',
  result: { ok: true },
  deduped: false,
};

/** A database of its own per test, dropped afterwards, so runs never see each other's data. */
const testDatabase = (): string => `fieldops_test_${randomUUID().slice(0, 8)}`;

async function dropDatabase(dbName: string): Promise<void> {
  const connection = await mongoose.createConnection(uri, { dbName }).asPromise();
  try {
    await connection.dropDatabase();
  } finally {
    await connection.close();
  }
}

/** Opens stores on one database; cleanup closes every one of them and drops the database. */
function storesOn(dbName: string): { open: () => Promise<DocumentStore>; cleanup: () => Promise<void> } {
  const opened: DocumentStore[] = [];
  return {
    open: async () => {
      // The tests define collections of their own, so the store creates their indexes (services only check).
      const store = await openMongoStore({ uri, dbName, indexes: 'create' });
      opened.push(store);
      return store;
    },
    cleanup: async () => {
      for (const store of opened) await store.close();
      await dropDatabase(dbName);
    },
  };
}

describeWithMongo(suiteTitle, () => {
  describeStoreContract('mongodb', async () => {
    const { open, cleanup } = storesOn(testDatabase());
    return { store: await open(), reopen: open, cleanup };
  });

  describe('mongodb adapter', () => {
    let open: () => Promise<DocumentStore>;
    let cleanup: () => Promise<void>;
    let store: DocumentStore;
    let dbName: string;

    beforeEach(async () => {
      dbName = testDatabase();
      ({ open, cleanup } = storesOn(dbName));
      store = await open();
      await store.define({ name: 'people', unique: [['email'], ['team', 'badge']], indexes: [['name']] });
    });

    afterEach(async () => {
      await cleanup();
    });

    it('builds a tenant-scoped index per unique key and list order, and never drops one', async () => {
      const connection = await mongoose.createConnection(uri, { dbName }).asPromise();
      try {
        const people = connection.db!.collection('people');
        const byName = async (): Promise<Record<string, unknown>> =>
          Object.fromEntries((await people.indexes()).map((index) => [index.name, index]));
        const indexes = await byName();
        expect(indexes.tenant_id).toMatchObject({ key: { tenantId: 1, id: 1 }, unique: true });
        expect(indexes.unique_email).toMatchObject({
          key: { tenantId: 1, email: 1 },
          unique: true,
          partialFilterExpression: { email: { $type: expect.any(Array) } },
        });
        expect(indexes.unique_team_badge).toMatchObject({ key: { tenantId: 1, team: 1, badge: 1 } });
        expect(indexes.order_name).toMatchObject({ key: { tenantId: 1, name: 1, id: 1 } });

        // A redefinition without the email key keeps its index (only an operator drops one), and an
        // operator's own index survives a redefinition too.
        await people.createIndex({ createdAt: -1 }, { name: 'ops_createdAt' });
        await store.define({ name: 'people', unique: [['team', 'badge']], indexes: [['name']] });
        expect(Object.keys(await byName()).sort()).toEqual([
          '_id_',
          'ops_createdAt',
          'order_name',
          'tenant_id',
          'unique_email',
          'unique_team_badge',
        ]);
      } finally {
        await connection.close();
      }
    });

    it('keys idempotency records by (tenant, key), so a replayed key loses at commit', async () => {
      await store.define(idempotencyCollectionSpec);
      const record = (id: string, tenantId: string): WriteOp =>
        insertIdempotencyRecord({ ...idempotencyFields, tenantId, requestId: id });
      await store.commit('t1', [record('r1', 't1')]);
      await store.commit('t2', [record('r2', 't2')]);
      const replay = store.commit('t1', [record('r3', 't1')]);
      await expect(replay).rejects.toMatchObject({ reason: 'unique', collection: IDEMPOTENCY_COLLECTION });
      expect((await findIdempotencyRecord(store, 't1', 'idem-key-1'))?.requestId).toBe('r1');
    });

    it('answers a unique-key lookup from its index, not a collection scan', async () => {
      await store.commit('t1', [
        { op: 'insert', collection: 'people', doc: { id: 'p1', tenantId: 't1', version: 1, email: 'a@x' } },
      ]);
      const connection = await mongoose.createConnection(uri, { dbName }).asPromise();
      try {
        const query = guardUniqueLookups([['email']], tenantQuery('t1', { email: 'a@x' }));
        const plan = await connection.db!.collection('people').find(query).explain('queryPlanner');
        expect(JSON.stringify(plan.queryPlanner)).toContain('"indexName":"unique_email"');
        expect(JSON.stringify(plan.queryPlanner.winningPlan)).not.toContain('COLLSCAN');
      } finally {
        await connection.close();
      }
    });

    it("wakes a store's outbox listeners when another process commits events", async () => {
      const other = await open();
      let calls = 0;
      const unsubscribe = store.onOutbox(() => calls++);
      try {
        // The change stream is open once the first listener subscribed; give it a moment to start.
        await new Promise((resolve) => setTimeout(resolve, 500));
        await other.commit('t1', [
          { op: 'emit', event: { id: 'e1', tenantId: 't1', topic: 'people', key: 't1', value: { n: 1 } } },
        ]);
        await waitFor(() => calls >= 1, 'the change stream to report the commit');
        expect(calls).toBe(1);
      } finally {
        unsubscribe();
      }
    });

    it('upgrades an outbox of global seqs: counters start above them, every event goes out once, in order', async () => {
      // What the previous versions left: records numbered by one global counter, some pending, and
      // a per-tenant counter that started at 0 beside them.
      const topic = `people.${randomUUID().slice(0, 8)}`;
      const old = (seq: number, tenantId: string, n: number, pending: boolean) => ({
        seq,
        id: `old_${seq}`,
        tenantId,
        topic,
        key: tenantId,
        value: { n },
        ...(pending ? { pending: true } : { publishedAt: new Date() }),
      });
      const connection = await mongoose.createConnection(uri, { dbName }).asPromise();
      try {
        await connection
          .db!.collection(OUTBOX_COLLECTION)
          .insertMany([
            old(1, 't1', 0, false),
            old(2, 't1', 1, true),
            old(3, 't2', 0, true),
            old(4, 't1', 2, true),
            old(5, 't2', 1, true),
          ]);
        await connection.db!.collection<{ _id: string; seq: number }>(COUNTERS_COLLECTION).insertOne({
          _id: 'outbox:t2',
          seq: 0,
        });
      } finally {
        await connection.close();
      }
      for (const tenantId of ['t1', 't2']) {
        await store.commit(tenantId, [
          { op: 'emit', event: { id: `new_${tenantId}`, tenantId, topic, key: tenantId, value: { n: 100 } } },
        ]);
      }
      const seqOf = async (id: string) =>
        (await store.pendingOutbox(100)).find((record) => record.id === id)?.seq;
      expect(await seqOf('new_t1')).toBe(5);
      expect(await seqOf('new_t2')).toBe(6);
      // A relay of the version before the lease, still running on an old pod, publishes old_5 (t2)
      // and marks it the only way it knows, by bare seq: t1's new seq 5 must stay pending.
      const oldPod = await mongoose.createConnection(uri, { dbName }).asPromise();
      try {
        await oldPod
          .db!.collection(OUTBOX_COLLECTION)
          .updateMany(
            { seq: { $in: [5] }, pending: true },
            { $unset: { pending: '' }, $set: { publishedAt: new Date() } },
          );
      } finally {
        await oldPod.close();
      }
      expect(await seqOf('new_t1')).toBe(5);
      expect(await seqOf('old_5')).toBeUndefined();

      const dir = mkdtempSync(join(tmpdir(), 'fieldops-mongo-upgrade-'));
      const log = await openEmbeddedEventLog({ dir });
      const relay = startOutboxRelay({ store, log, idleMs: 50, batchSize: 2 });
      try {
        await relay.drain();
        expect(await store.pendingOutbox(10)).toEqual([]);
        const consumer = await consume(log, { group: 'g', topics: [topic] });
        await waitFor(() => consumer.records.length >= 5, 'five relayed events');
        const nsOf = (key: string) =>
          consumer.records
            .filter((record) => record.key === key)
            .map((record) => (record.value as { n: number }).n);
        expect(nsOf('t1')).toEqual([1, 2, 100]);
        expect(nsOf('t2')).toEqual([0, 100]);
        const ids = consumer.records.map((record) => record.headers['x-event-id']);
        expect(new Set(ids).size).toBe(5);
        await consumer.stop();
      } finally {
        await relay.stop();
        await log.close();
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('hands committed events to the relay, which publishes each once and marks it published', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'fieldops-mongo-relay-'));
      const log = await openEmbeddedEventLog({ dir });
      const relay = startOutboxRelay({ store, log, idleMs: 50 });
      try {
        const topic = `people.${randomUUID().slice(0, 8)}`;
        for (let n = 0; n < 5; n++) {
          await store.commit('t1', [
            { op: 'insert', collection: 'people', doc: { id: `p${n}`, tenantId: 't1', version: 1 } },
            { op: 'emit', event: { id: `e${n}`, tenantId: 't1', topic, key: 't1', value: { n } } },
          ]);
        }
        await relay.drain();
        expect(await store.pendingOutbox(10)).toEqual([]);
        const consumer = await consume(log, { group: 'g', topics: [topic] });
        await waitFor(() => consumer.records.length >= 5, 'five relayed events');
        expect(consumer.ns()).toEqual([0, 1, 2, 3, 4]);
        expect(consumer.records.map((record) => record.headers['x-event-id'])).toEqual([
          'e0',
          'e1',
          'e2',
          'e3',
          'e4',
        ]);
        await consumer.stop();
      } finally {
        await relay.stop();
        await log.close();
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});

describe('mongodb store startup', () => {
  it('fails fast, naming the server without its credentials, when nothing listens', async () => {
    const started = Date.now();
    const failure = await openMongoStore({
      uri: 'mongodb://fieldops:s3cret-password@127.0.0.1:1/fieldops',
      dbName: 'fieldops_startup',
      serverSelectionTimeoutMS: 300,
    }).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure?.message).toContain('Cannot connect to MongoDB at mongodb://***@127.0.0.1:1/fieldops');
    expect(failure?.message).not.toContain('s3cret-password');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
