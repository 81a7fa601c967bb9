// The MongoDB document store (production). One database per service (connect.ts); per collection
// a mongoose schema declares the indexes (tenant-scoped unique keys, list orderings: schema.ts);
// commit() is one multi-document transaction holding the document changes and their outbox
// events (outbox.ts); optimistic concurrency is a version condition on every replace and delete.
//
// Semantics are the embedded store's, checked by the same contract suite
// (test/contracts/store.contract.ts): versions are assigned here (1 on insert, expectedVersion + 1
// on replace), documents are stored as plain JSON, and the port's filters and keyset pages are
// translated to MongoDB queries that match and order exactly like the embedded store's.
import type { ClientSession, Connection, mongo } from 'mongoose';
import { decodeCursor, encodeCursor, type CursorPosition } from '../cursor.ts';
import { checkSort } from '../filter.ts';
import {
  FIND_ORDER,
  StoreConflict,
  type CollectionSpec,
  type Doc,
  type DocumentStore,
  type Filter,
  type LeaseFence,
  type LeaseGrant,
  type OutboxPosition,
  type OutboxRecord,
  type Page,
  type PageJson,
  type PageQuery,
  type Sort,
  type WriteOp,
} from '../port.ts';
import { checkOps, plainJson } from '../check-ops.ts';
import { OutboxListeners } from '../outbox-listeners.ts';
import { connectMongo, type MongoConnectOptions } from './connect.ts';
import { DEFAULT_MONGO_BOUNDS, type MongoBounds } from '../../config.ts';
import { isDuplicateKey, translateCommitFailure, translateFailure, unavailable } from './errors.ts';
import { tenantQuery, translate, type MongoQuery } from './filter-query.ts';
import { guardUniqueLookups } from './indexes.ts';
import { checkCollection, MissingIndexes, type IndexMode } from './migrate.ts';
import { MongoLeases } from './leases.ts';
import { MongoOutbox, OutboxTail } from './outbox.ts';
import {
  afterPosition,
  containsPageNext,
  containsPagePipeline,
  sortSpec,
  splitContains,
  type ContainsWindow,
} from './page-query.ts';
import {
  COUNTERS_COLLECTION,
  documentSchema,
  LEASES_COLLECTION,
  modelOf,
  OUTBOX_COLLECTION,
  syncCollection,
} from './schema.ts';

export interface MongoStoreOptions extends MongoConnectOptions {
  /**
   * `check` (the default, every service): define() only checks that the declared indexes exist and
   * refuses to start without them (MissingIndexes); the migration (`npm run store:migrate`, the
   * chart's pre-upgrade Job) creates them. `create`: define() creates the missing ones itself (the
   * adapter tests, which define collections of their own). Neither ever drops an index.
   */
  indexes?: IndexMode;
}

type Stored = mongo.Document;

interface Defined {
  spec: CollectionSpec;
  collection: mongo.Collection<Stored>;
}

/** Documents come back as the service stored them: without MongoDB's own _id. */
const WITHOUT_ID = { projection: { _id: 0 } } as const;

/**
 * Snapshot reads inside the transaction, majority-acknowledged commits, on the primary: a commit
 * that resolved survives a failover, and the version checks read what the transaction will write.
 * The commit and the majority's acknowledgement are bounded by the operation timeout.
 */
function transactionOptions(bounds: MongoBounds): mongo.TransactionOptions {
  return {
    readConcern: { level: 'snapshot' },
    writeConcern: { w: 'majority', wtimeoutMS: bounds.operationTimeoutMs },
    readPreference: 'primary',
    maxCommitTimeMS: bounds.operationTimeoutMs,
  };
}

const RESERVED = [OUTBOX_COLLECTION, COUNTERS_COLLECTION, LEASES_COLLECTION];

export async function openMongoStore(options: MongoStoreOptions): Promise<DocumentStore> {
  const connection = await connectMongo(options);
  try {
    const bounds = options.bounds ?? DEFAULT_MONGO_BOUNDS;
    const indexes = options.indexes ?? 'check';
    const outbox = new MongoOutbox(connection, bounds);
    await outbox.prepare(indexes);
    return new MongoStore(connection, outbox, bounds, indexes);
  } catch (error) {
    await connection.close(true).catch(() => undefined);
    throw error;
  }
}

/** Exported for unit tests of the commit path (fake connection); services open it with openMongoStore. */
export class MongoStore implements DocumentStore {
  private readonly collections = new Map<string, Defined>();
  private readonly listeners = new OutboxListeners();
  private readonly tail: OutboxTail;
  private readonly leases: MongoLeases;
  /** The driver's database: reads and writes bypass mongoose's casting, so queries mean what they say. */
  private readonly db: mongo.Db;
  private closing: Promise<void> | undefined;
  /** Each read's server-side limit (maxTimeMS). */
  private readonly limit: { maxTimeMS: number };

  private readonly connection: Connection;
  private readonly outbox: MongoOutbox;
  private readonly bounds: MongoBounds;
  private readonly indexes: IndexMode;
  constructor(
    connection: Connection,
    outbox: MongoOutbox,
    bounds: MongoBounds = DEFAULT_MONGO_BOUNDS,
    indexes: IndexMode = 'check',
  ) {
    this.connection = connection;
    this.outbox = outbox;
    this.bounds = bounds;
    this.indexes = indexes;
    this.limit = { maxTimeMS: bounds.operationTimeoutMs };
    if (connection.db === undefined) throw new Error('the MongoDB connection has no database');
    this.db = connection.db;
    this.tail = new OutboxTail(outbox, () => this.listeners.notify());
    this.leases = new MongoLeases(connection, bounds.operationTimeoutMs);
  }

  async define(spec: CollectionSpec): Promise<void> {
    this.assertOpen();
    assertCollectionName(spec?.name);
    const model = modelOf(this.connection, spec.name, documentSchema(spec));
    let missing: string[] = [];
    try {
      if (this.indexes === 'create') await syncCollection(model);
      else missing = await checkCollection(model);
    } catch (error) {
      if (isDuplicateKey(error)) {
        throw new Error(
          `collection ${spec.name}: cannot enforce its unique keys, stored documents already share one ` +
            `(${error.message})`,
          { cause: error },
        );
      }
      translateFailure(error);
    }
    if (missing.length > 0) throw new MissingIndexes(this.db.databaseName, missing);
    this.collections.set(spec.name, { spec, collection: this.db.collection(spec.name) });
  }

  async get<T extends Doc>(collection: string, tenantId: string, id: string): Promise<T | null> {
    const { collection: target } = this.defined(collection);
    if (typeof tenantId !== 'string' || typeof id !== 'string') return null;
    return this.reading(() =>
      target.findOne({ tenantId, id }, { ...WITHOUT_ID, ...this.limit }),
    ) as Promise<T | null>;
  }

  async findOne<T extends Doc>(collection: string, tenantId: string, filter: Filter): Promise<T | null> {
    const { spec, collection: target } = this.defined(collection);
    // A lookup by a unique key (idempotency keys, dedupe keys) must use that key's partial index.
    const query = guardUniqueLookups(spec.unique, tenantQuery(tenantId, filter));
    return this.reading(() => target.findOne(query, { ...WITHOUT_ID, ...this.limit })) as Promise<T | null>;
  }

  async find<T extends Doc>(
    collection: string,
    tenantId: string,
    filter: Filter,
    options: { sort?: Sort; limit?: number } = {},
  ): Promise<T[]> {
    const { collection: target } = this.defined(collection);
    const query = tenantQuery(tenantId, filter);
    const { sort = FIND_ORDER, limit } = options;
    checkSort(sort);
    if (limit !== undefined && limit <= 0) return [];
    return this.reading(() => {
      let cursor = target.find(query, { ...WITHOUT_ID, ...this.limit }).sort(sortSpec(sort));
      if (limit !== undefined && Number.isFinite(limit)) cursor = cursor.limit(Math.floor(limit));
      return cursor.toArray();
    }) as Promise<unknown> as Promise<T[]>;
  }

  async page<T extends Doc>(collection: string, tenantId: string, query: PageQuery): Promise<Page<T>> {
    const { collection: target } = this.defined(collection);
    if (!Number.isInteger(query.limit) || query.limit < 1) {
      throw new Error('page limit must be a positive integer');
    }
    const matching = tenantQuery(tenantId, query.filter);
    checkSort(query.sort);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.sort, query.cursor);
    const { narrow, tested } = splitContains(query.filter);
    if (tested !== undefined) {
      return this.containsPage<T>(target, tenantQuery(tenantId, narrow), translate(tested), query, after);
    }
    const selector: MongoQuery =
      after === undefined ? matching : { $and: [matching, afterPosition(query.sort, after)] };
    // One extra item tells whether another page exists without a second query.
    const found = (await this.reading(() =>
      target
        .find(selector, { ...WITHOUT_ID, ...this.limit })
        .sort(sortSpec(query.sort))
        .limit(query.limit + 1)
        .toArray(),
    )) as unknown as T[];
    const items = found.slice(0, query.limit);
    const last = items[items.length - 1];
    const hasMore = found.length > query.limit && last !== undefined;
    return {
      items,
      nextCursor: hasMore
        ? encodeCursor(query.sort, { value: readPath(last, query.sort.field), id: last.id })
        : null,
    };
  }

  /** A `$contains` page: at most PAGE_EXAMINE_LIMIT documents tested, as on the embedded store. */
  private async containsPage<T extends Doc>(
    target: mongo.Collection<Stored>,
    narrow: MongoQuery,
    tested: MongoQuery,
    query: PageQuery,
    after: CursorPosition | undefined,
  ): Promise<Page<T>> {
    const window = after === undefined ? narrow : { $and: [narrow, afterPosition(query.sort, after)] };
    const pipeline = containsPagePipeline(window, tested, query.sort, query.limit);
    const [read] = await this.reading(() =>
      target.aggregate<ContainsWindow>(pipeline, { ...this.limit, allowDiskUse: false }).toArray(),
    );
    const { items, next } = containsPageNext(
      read ?? { items: [], examined: [], total: [] },
      query.limit,
      (doc) => readPath(doc as Doc, query.sort.field),
    );
    return { items: items as T[], nextCursor: next === null ? null : encodeCursor(query.sort, next) };
  }

  // Every read decodes fresh documents here, so there is nothing to remember a rendering by.
  readonly pageJson: PageJson = async (collection, tenantId, query, render) => {
    const page = await this.page<Parameters<typeof render>[0]>(collection, tenantId, query);
    return { items: page.items.map(render), nextCursor: page.nextCursor };
  };

  async count(collection: string, tenantId: string, filter: Filter): Promise<number> {
    const { collection: target } = this.defined(collection);
    const query = tenantQuery(tenantId, filter);
    return this.reading(() => target.countDocuments(query, this.limit));
  }

  async commit(tenantId: string, ops: WriteOp[]): Promise<void> {
    this.assertOpen();
    checkOps(tenantId, ops, (name) => this.defined(name).spec);
    if (ops.length === 0) return;
    const events = ops.flatMap((op) => (op.op === 'emit' ? [plainJson(op.event)] : []));
    /** The seqs each transaction attempt allocated; only the last attempt's are committed. */
    const attempts: number[][] = [];
    /** The collection of the op in hand, to name it in a duplicate-key conflict. */
    let current = '';
    /**
     * True once the last attempt's operations all ran: the driver then sends commitTransaction, and
     * a lost server from here on leaves the commit's result unknown (errors.ts).
     */
    let commitSent = false;
    if (events.length > 0) await this.reading(() => this.outbox.seedCounter(tenantId));
    const session = this.connection.getClient().startSession();
    let committed: number[] = [];
    // The driver retries a transaction that met a write conflict or a failover for up to 120 s
    // (its own bound, since this driver ignores timeoutMS); a commit stops retrying after the
    // operation timeout and answers `unavailable` instead of holding the caller and a connection.
    const deadline = Date.now() + this.bounds.operationTimeoutMs;
    let attempt = 0;
    try {
      committed = await session.withTransaction(async () => {
        attempt += 1;
        if (attempt > 1 && Date.now() > deadline) {
          throw unavailable(new Error(`the commit was retried for ${this.bounds.operationTimeoutMs} ms`));
        }
        commitSent = false;
        for (const op of ops) {
          if (op.op === 'emit') continue;
          current = op.collection;
          await this.apply(tenantId, op, session);
        }
        current = OUTBOX_COLLECTION;
        const seqs = await this.outbox.append(tenantId, events, session);
        attempts.push(seqs);
        this.tail.expectOwn(tenantId, seqs);
        commitSent = true;
        return seqs;
      }, transactionOptions(this.bounds));
    } catch (error) {
      for (const seqs of attempts) this.tail.forget(tenantId, seqs);
      translateCommitFailure(error, current, commitSent);
    } finally {
      await session.endSession().catch(() => undefined);
    }
    // An aborted attempt's counter increment was rolled back too, so a retry may reuse its seqs.
    const kept = new Set(committed);
    for (const seqs of attempts)
      this.tail.forget(
        tenantId,
        seqs.filter((seq) => !kept.has(seq)),
      );
    if (committed.length > 0) this.listeners.notify();
  }

  async pendingOutbox(limit: number): Promise<OutboxRecord[]> {
    this.assertOpen();
    return this.reading(() => this.outbox.pending(limit));
  }

  async markPublished(records: OutboxPosition[], fence?: LeaseFence): Promise<void> {
    this.assertOpen();
    if (fence === undefined) await this.reading(() => this.outbox.markPublished(records));
    else await this.reading(() => this.fencedMark(records, fence));
  }

  /**
   * The mark and the lease check in one transaction: the check writes the lease document, so a
   * relay taking the lease meanwhile conflicts with it, and a lost lease marks nothing.
   */
  private async fencedMark(records: OutboxPosition[], fence: LeaseFence): Promise<void> {
    const session = this.connection.getClient().startSession();
    try {
      await session.withTransaction(async () => {
        await this.leases.check(fence, session);
        await this.outbox.markPublished(records, session);
      }, transactionOptions(this.bounds));
    } finally {
      await session.endSession().catch(() => undefined);
    }
  }

  async acquireLease(name: string, owner: string, ttlMs: number): Promise<LeaseGrant | null> {
    return this.reading(() => this.leases.acquire(name, owner, ttlMs));
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    await this.reading(() => this.leases.release(name, owner));
  }

  onOutbox(listener: () => void): () => void {
    const remove = this.listeners.add(listener);
    if (this.closing === undefined) this.tail.start();
    return () => {
      remove();
      if (this.listeners.size === 0) this.tail.stop();
    };
  }

  /** The server's `ping`: a primary selected and answering within the registry's check bound. */
  async ping(): Promise<boolean> {
    if (this.closing !== undefined) return false;
    try {
      await this.db.command({ ping: 1 });
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  // --- writes --------------------------------------------------------------------------------------

  private async apply(tenantId: string, op: Exclude<WriteOp, { op: 'emit' }>, session: ClientSession) {
    const { collection } = this.defined(op.collection);
    if (op.op === 'insert') {
      await collection.insertOne(storedDoc(op.doc, tenantId, 1), { session });
      return;
    }
    if (op.op === 'replace') {
      const filter = { tenantId, id: op.doc.id, version: op.expectedVersion };
      const doc = storedDoc(op.doc, tenantId, op.expectedVersion + 1);
      const result = await collection.replaceOne(filter, doc, { session });
      if (result.matchedCount === 0)
        await this.explainMiss(op.collection, tenantId, op.doc.id, op.expectedVersion, session);
      return;
    }
    const filter: Stored = { tenantId, id: op.id };
    if (op.expectedVersion !== undefined) filter.version = op.expectedVersion;
    const result = await collection.deleteOne(filter, { session });
    if (result.deletedCount === 0)
      await this.explainMiss(op.collection, tenantId, op.id, op.expectedVersion, session);
  }

  /** A replace or delete matched nothing: the document is missing, or at another version. Throws. */
  private async explainMiss(
    name: string,
    tenantId: string,
    id: string,
    expected: number | undefined,
    session: ClientSession,
  ): Promise<never> {
    const { collection } = this.defined(name);
    const stored = await collection.findOne({ tenantId, id }, { session, projection: { version: 1 } });
    if (stored === null) throw new StoreConflict('missing', name, `document ${id} does not exist`);
    throw new StoreConflict(
      'version',
      name,
      `document ${id} is at version ${String(stored.version)}, not ${String(expected)}`,
    );
  }

  // --- plumbing ------------------------------------------------------------------------------------

  /** Runs a read; an unreachable server becomes `unavailable` (503, retry shortly). */
  private async reading<T>(read: () => Promise<T>): Promise<T> {
    this.assertOpen();
    try {
      return await read();
    } catch (error) {
      translateFailure(error);
    }
  }

  private defined(name: string): Defined {
    this.assertOpen();
    const defined = this.collections.get(name);
    if (defined === undefined) throw new Error(`collection ${name} is not defined; call define() first`);
    return defined;
  }

  private async shutdown(): Promise<void> {
    this.tail.stop();
    this.listeners.clear();
    await this.connection.close();
  }

  private assertOpen(): void {
    if (this.closing !== undefined) throw new Error('the store is closed');
  }
}

function assertCollectionName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '') throw new Error('a collection needs a name');
  if (
    name.includes('$') ||
    name.includes('\u0000') ||
    name.startsWith('system.') ||
    RESERVED.includes(name)
  ) {
    throw new Error(`collection name ${name} is reserved or not allowed by MongoDB`);
  }
}

/**
 * The document as stored: plain JSON, with the tenant and the version the store assigns. A field
 * named _id is dropped: it is MongoDB's own identity and must not make ids unique across tenants.
 */
function storedDoc(doc: Doc, tenantId: string, version: number): Stored {
  const { _id: _ignored, ...fields } = plainJson(doc) as Doc & { _id?: unknown };
  return { ...fields, tenantId, version };
}

/** The sort value of a document as the cursor records it (dot paths reach into nested objects). */
function readPath(doc: Doc, path: string): unknown {
  let current: unknown = doc;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
