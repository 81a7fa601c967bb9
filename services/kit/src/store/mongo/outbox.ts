// The transactional outbox on MongoDB. Events are inserted into `fieldops.outbox` inside the same
// transaction as the documents they describe, so a change and its events commit together or not
// at all. Seqs come from a counter document per tenant (the ordering key: a DomainEvent's log key
// is its tenant) incremented in that transaction: emitting commits of one tenant serialise on it,
// which makes a tenant's seq order its commit order (an event never appears behind one of its
// tenant the relay has already passed), and commits of two tenants never touch the same document
// (docs/decisions.md, "Outbox order per tenant"). A counter starts above the highest seq stored for
// its tenant (an older version's global seqs included). The relay reads pending records
// round-robin across tenants (fair-turns.ts) and marks them published by (tenant, seq); a
// change stream on the collection ("tailing" it) wakes the relay in every process as soon as any
// process commits an event, so a relay need not poll tightly.
import { Schema, type ClientSession, type Connection, type mongo } from 'mongoose';
import { DEFAULT_MONGO_BOUNDS, type MongoBounds } from '../../config.ts';
import { counterFloor, roundRobin } from '../fair-turns.ts';
import type { OutboxEvent, OutboxPosition, OutboxRecord } from '../port.ts';
import { checkCollection, MissingIndexes, type IndexMode } from './migrate.ts';
import { COUNTERS_COLLECTION, modelOf, OUTBOX_COLLECTION, outboxSchema, syncCollection } from './schema.ts';

interface OutboxDoc extends OutboxRecord {
  /** PENDING on records of this version, `true` on those of versions before the fencing. */
  pending?: true | typeof PENDING;
  publishedAt?: Date;
}

/**
 * How this version marks a pending record. Relays of versions before the lease (issue 24) read
 * `{pending: true}` and mark by bare seq, which could name another tenant's record now that seqs
 * count per tenant: they neither see nor mark records of this mark, and their own old records
 * (still `true`) are read by this version too. A published record has no `pending` at all.
 */
export const PENDING = 2;
/** Pending in either version's mark (the partial index pending_tenant_seq holds exactly these). */
const IS_PENDING = { pending: { $exists: true } } as const;

interface CounterDoc {
  _id: string;
  seq: number;
}

/** A tenant's counter document (`outbox` alone was the one global counter of older versions). */
const counterId = (tenantId: string): string => `outbox:${tenantId}`;
/** Tenants whose counters are seeded are remembered up to this many, then forgotten and re-seeded. */
const SEEDED_LIMIT = 100_000;
/** The fields of a record the relay gets back: exactly an OutboxRecord. */
const RECORD_PROJECTION = { _id: 0, pending: 0, publishedAt: 0 } as const;

/**
 * How the relay reads pending records: from the primary, and only what a majority of the replica
 * set holds. An event a failover can still roll back (with the transaction that wrote it) is not
 * published until it cannot be.
 */
export const PENDING_READ = {
  readConcern: { level: 'majority' },
  readPreference: 'primary',
} as const satisfies mongo.CollectionOptions;

export class MongoOutbox {
  private readonly records: mongo.Collection<OutboxDoc>;
  /** The same collection, read as PENDING_READ says. */
  readonly pendingRecords: mongo.Collection<OutboxDoc>;
  private readonly counters: mongo.Collection<CounterDoc>;
  /** Tenants whose counter document exists, so a commit need not seed it first. */
  private readonly seeded = new Set<string>();
  /** Where the next pending() starts among tenants (by id), so every tenant gets its turn. */
  private nextTenant = '';

  private readonly connection: Connection;
  private readonly bounds: MongoBounds;
  constructor(connection: Connection, bounds: MongoBounds = DEFAULT_MONGO_BOUNDS) {
    this.connection = connection;
    this.bounds = bounds;
    const db = connection.db;
    if (db === undefined) throw new Error('the MongoDB connection has no database');
    this.records = db.collection<OutboxDoc>(OUTBOX_COLLECTION);
    this.pendingRecords = db.collection<OutboxDoc>(OUTBOX_COLLECTION, PENDING_READ);
    this.counters = db.collection<CounterDoc>(COUNTERS_COLLECTION);
  }

  /**
   * Checks (or, in `create` mode, creates) the outbox's indexes, and refuses a unique index of an
   * older version that would refuse commits. The migration creates these collections in every service
   * database.
   */
  async prepare(indexes: IndexMode = 'check'): Promise<void> {
    const outbox = modelOf(this.connection, OUTBOX_COLLECTION, outboxSchema());
    const counterSchema = new Schema({ _id: String, seq: Number }, { versionKey: false, autoIndex: false });
    const counters = modelOf(this.connection, COUNTERS_COLLECTION, counterSchema);
    if (indexes === 'create') {
      await syncCollection(outbox);
      await syncCollection(counters);
    } else {
      const missing = await checkCollection(outbox);
      if (missing.length > 0) throw new MissingIndexes(outbox.db.name, missing);
    }
    // An outbox of an older version holds a unique index on seq alone (one global counter), which
    // refuses the second tenant's first event now that seqs count per tenant: like every unique
    // index no version declares, it stops the start above (StrayUniqueIndexes), naming the drop.
  }

  /**
   * Creates the tenant's counter document when it has none, or raises it, outside any transaction:
   * two commits creating it inside theirs would meet as a duplicate key, not as a conflict the
   * driver retries. The counter starts above the highest seq stored for the tenant: records an
   * older version numbered with its global counter stay under the unique (tenantId, seq) index,
   * and a counter of the previous version that started at 0 beside them is raised past them.
   */
  async seedCounter(tenantId: string): Promise<void> {
    if (this.seeded.has(tenantId)) return;
    const highest = await this.highestSeq(tenantId);
    try {
      await this.counters.updateOne(
        { _id: counterId(tenantId) },
        { $max: { seq: counterFloor(0, highest) } },
        { upsert: true, maxTimeMS: this.bounds.operationTimeoutMs },
      );
    } catch (error) {
      // Two processes seeding at once: one upsert wins, the other sees its duplicate _id.
      if ((error as { code?: unknown }).code !== 11000) throw error;
    }
    if (this.seeded.size >= SEEDED_LIMIT) this.seeded.clear();
    this.seeded.add(tenantId);
  }

  /** The highest seq stored for the tenant, published or not (the unique tenant_seq index answers). */
  private async highestSeq(tenantId: string): Promise<number | undefined> {
    const [last] = await this.records
      .find({ tenantId }, { projection: { _id: 0, seq: 1 }, maxTimeMS: this.bounds.operationTimeoutMs })
      .sort({ tenantId: 1, seq: -1 })
      .limit(1)
      .toArray();
    return last?.seq;
  }

  /**
   * Inserts the events of `tenantId` with consecutive seqs of that tenant, inside the caller's
   * transaction (after seedCounter); returns the seqs.
   */
  async append(tenantId: string, events: OutboxEvent[], session: ClientSession): Promise<number[]> {
    if (events.length === 0) return [];
    const counter = await this.counters.findOneAndUpdate(
      { _id: counterId(tenantId) },
      { $inc: { seq: events.length } },
      { session, returnDocument: 'after' },
    );
    if (counter === null) {
      this.seeded.delete(tenantId);
      throw new Error(`the ${COUNTERS_COLLECTION} counter of tenant ${tenantId} is missing`);
    }
    const first = counter.seq - events.length + 1;
    const docs: OutboxDoc[] = events.map((event, index) => ({
      seq: first + index,
      id: event.id,
      tenantId: event.tenantId,
      topic: event.topic,
      key: event.key,
      value: event.value,
      pending: PENDING,
    }));
    await this.records.insertMany(docs, { session, ordered: true });
    return docs.map((doc) => doc.seq);
  }

  /**
   * Up to `limit` pending records, round-robin across up to `limit` tenants that have some, starting
   * after the last tenant the previous call served. Each tenant's are its earliest, in seq order,
   * and a tenant's seq n+1 commits only after its seq n did, so a batch holding a tenant's event
   * holds every earlier pending one of that tenant.
   */
  async pending(limit: number): Promise<OutboxRecord[]> {
    if (!Number.isInteger(limit) || limit < 1) return [];
    const tenants = await this.pendingTenants(limit);
    const share = Math.ceil(limit / Math.max(1, tenants.length));
    const queues = await Promise.all(
      tenants.map(async (tenantId) => {
        const records = (await this.pendingRecords
          .find(
            { ...IS_PENDING, tenantId },
            { projection: RECORD_PROJECTION, maxTimeMS: this.bounds.operationTimeoutMs },
          )
          .sort({ tenantId: 1, seq: 1 })
          .limit(share)
          .toArray()) as OutboxRecord[];
        return { tenantId, records: records.values() };
      }),
    );
    const taken = roundRobin(queues, limit);
    // Every tenant listed got a turn (share >= 1); with as many as a batch holds, more may wait
    // behind them, so the next read starts after the last one listed (wrapping round to the start).
    const last = tenants[tenants.length - 1];
    this.nextTenant = tenants.length < limit || last === undefined ? '' : `${last}\u0000`;
    return taken;
  }

  /** Tenants with pending records, by id from where the last call stopped, wrapping around. */
  private async pendingTenants(limit: number): Promise<string[]> {
    const from = async (after: string, before?: string): Promise<string[]> => {
      const range = before === undefined ? { $gte: after } : { $gte: after, $lt: before };
      const groups = await this.pendingRecords
        .aggregate<{ _id: string }>(
          [
            { $match: { ...IS_PENDING, tenantId: range } },
            { $group: { _id: '$tenantId' } },
            { $sort: { _id: 1 } },
            { $limit: limit },
          ],
          { maxTimeMS: this.bounds.operationTimeoutMs },
        )
        .toArray();
      return groups.map((group) => group._id);
    };
    const start = this.nextTenant;
    const tenants = await from(start);
    if (tenants.length < limit && start !== '')
      tenants.push(...(await from('', start)).slice(0, limit - tenants.length));
    return tenants;
  }

  async markPublished(records: OutboxPosition[], session?: ClientSession): Promise<void> {
    const byTenant = new Map<string, Set<number>>();
    for (const { tenantId, seq } of records) {
      if (typeof tenantId !== 'string' || !Number.isInteger(seq)) continue;
      const seqs = byTenant.get(tenantId) ?? new Set<number>();
      byTenant.set(tenantId, seqs.add(seq));
    }
    if (byTenant.size === 0) return;
    const which = [...byTenant].map(([tenantId, seqs]) => ({ tenantId, seq: { $in: [...seqs] } }));
    await this.records.updateMany(
      { $or: which, ...IS_PENDING },
      { $unset: { pending: '' }, $set: { publishedAt: new Date() } },
      session === undefined ? { maxTimeMS: this.bounds.operationTimeoutMs } : { session },
    );
  }

  /** A change stream of inserted outbox records (the tail); the caller closes it. */
  watchInserts(): mongo.ChangeStream<OutboxDoc> {
    return this.records.watch<OutboxDoc>([{ $match: { operationType: 'insert' } }]);
  }
}

/**
 * Calls `onRemoteCommit` when another process (or another store on the same database) commits
 * outbox events. Commits of this store are announced by the store itself, at once, so their
 * change events are recognised by seq and skipped: a listener hears of each commit once.
 * A broken stream (failover, a restarted server) is reopened after a pause; the relay's own poll
 * covers the gap.
 */
export class OutboxTail {
  private stream: mongo.ChangeStream<OutboxDoc> | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Records (ownKey) this store committed whose change events have not arrived yet. */
  private readonly own = new Set<string>();
  private running = false;

  private readonly outbox: MongoOutbox;
  private readonly onRemoteCommit: () => void;
  private readonly restartMs;
  constructor(outbox: MongoOutbox, onRemoteCommit: () => void, restartMs = 1_000) {
    this.outbox = outbox;
    this.onRemoteCommit = onRemoteCommit;
    this.restartMs = restartMs;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.open();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.restartTimer);
    this.own.clear();
    void this.closeStream();
  }

  /**
   * Remembers seqs this store is committing, before the commit (its change event may arrive before
   * the commit call returns). Only while tailing, so the set cannot grow unheard.
   */
  expectOwn(tenantId: string, seqs: number[]): void {
    if (!this.running) return;
    // A stream that lost events (a restart in between) would never clear these; bound the set.
    if (this.own.size > 10_000) this.own.clear();
    for (const seq of seqs) this.own.add(ownKey(tenantId, seq));
  }

  /** Seqs of a transaction attempt that did not commit: no change event will ever come for them. */
  forget(tenantId: string, seqs: number[]): void {
    for (const seq of seqs) this.own.delete(ownKey(tenantId, seq));
  }

  private open(): void {
    let stream: mongo.ChangeStream<OutboxDoc>;
    try {
      stream = this.outbox.watchInserts();
    } catch {
      this.scheduleRestart();
      return;
    }
    this.stream = stream;
    stream.on('change', (change) => {
      if (change.operationType !== 'insert') return;
      const { tenantId, seq } = change.fullDocument;
      if (this.own.delete(ownKey(tenantId, seq))) return;
      this.onRemoteCommit();
    });
    stream.on('error', () => {
      void this.closeStream();
      this.scheduleRestart();
    });
  }

  private scheduleRestart(): void {
    if (!this.running) return;
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      if (this.running && this.stream === undefined) this.open();
    }, this.restartMs);
    this.restartTimer.unref();
  }

  private async closeStream(): Promise<void> {
    const stream = this.stream;
    this.stream = undefined;
    await stream?.close().catch(() => undefined);
  }
}

function ownKey(tenantId: string, seq: number): string {
  return `${seq}\u0000${tenantId}`;
}
