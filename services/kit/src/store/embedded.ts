// The embedded document store: every collection in memory, made durable by an append-only journal
// (one checksummed line per commit, written before commit resolves) and periodic snapshots.
// This is what `npm start` uses; query semantics match the MongoDB adapter (see filter.ts).
//
// Versions are assigned here, not trusted from the caller: an insert stores version 1 and a
// replace stores expectedVersion + 1, whatever `doc.version` said.
//
// Stored documents are plain JSON: a document is normalised through JSON on commit (undefined
// fields dropped, Dates become ISO strings), so what a read returns before a restart is exactly
// what it returns after one.
import fs from 'node:fs';
import path from 'node:path';
import { lockDirectory } from '../process/dir-lock.js';
import { makePrivateDirSync, tightenTreeSync } from '../process/private-files.js';
import { Collection } from './collection.js';
import { checkOps } from './check-ops.js';
import { OutboxListeners } from './outbox-listeners.js';
import { compareValues, pathGetter } from './compare.js';
import { decodeCursor, encodeCursor, type CursorPosition } from './cursor.js';
import { compileFilter, type Predicate } from './filter.js';
import type { Entry } from './ordered-index.js';
import { bucketCount, choosePlan, walk, type Plan } from './query-plan.js';
import { JournalWriter, readJournal, type FsyncPolicy } from './journal.js';
import {
  StoreConflict,
  type CollectionSpec,
  type Doc,
  type DocumentStore,
  type Filter,
  type OutboxRecord,
  type Page,
  type PageJson,
  type PageQuery,
  type Sort,
  type WriteOp,
} from './port.js';
import { Renderings } from './renderings.js';
import { PAGE_EXAMINE_LIMIT } from './scan-budget.js';
import { readSnapshot, syncDirectory, writeSnapshot, type SnapshotHeader } from './snapshot.js';
import { TopK } from './topk.js';

export interface EmbeddedStoreOptions {
  /** The store's own directory, e.g. `<FIELDOPS_DATA_DIR>/crm`; created when missing. */
  dir: string;
  /** Default 'interval': a killed process never loses a commit, a power loss at most ~100 ms. */
  fsync?: FsyncPolicy;
  /** Journal size that triggers a snapshot; default 64 MiB. */
  compactAfterBytes?: number;
}

const JOURNAL_FILE = 'journal.log';
const SNAPSHOT_FILE = 'snapshot.jsonl';
const DEFAULT_COMPACT_AFTER = 64 * 1024 * 1024;

/** A document change as journaled: the resulting document, or the id of a deleted one. */
type Effect = { c: string; d: Doc } | { c: string; x: string };

/** A journal line: a commit (tenant, effects, events) or a batch of published outbox seqs. */
interface JournalEntry {
  s: number;
  t?: string;
  w?: Effect[];
  e?: OutboxRecord[];
  p?: number[];
}

/** A snapshot record: a document of a collection, or a pending outbox event. */
type SnapshotRecord = { c: string; d: Doc } | { o: OutboxRecord };

// Two stores on one directory, in one process or two, would interleave journal lines: the
// directory's OS lock (process/dir-lock.ts) refuses the second, and never a restart after a crash.
const releases = new Map<string, () => void>();

export async function openEmbeddedStore(options: EmbeddedStoreOptions): Promise<DocumentStore> {
  const dir = path.resolve(options.dir);
  makePrivateDirSync(dir);
  const release = lockDirectory(dir, 'document store');
  // The journal and snapshot hold secrets (webhook signing secrets, link-signing keys): 0600,
  // also when an older version wrote them looser.
  tightenTreeSync(dir);
  try {
    const store = new EmbeddedStore(dir, options.fsync ?? 'interval', options.compactAfterBytes);
    releases.set(dir, release);
    return store;
  } catch (err) {
    release();
    throw err;
  }
}

/** The in-memory state and the bookkeeping that goes into snapshots. */
class State {
  readonly collections = new Map<string, Collection>();
  /** Unpublished events by seq; a Map keeps them in seq order since seqs only grow. */
  readonly outbox = new Map<number, OutboxRecord>();
  seq = 0;
  nextOutboxSeq = 1;

  collection(name: string): Collection {
    let collection = this.collections.get(name);
    if (collection === undefined) {
      collection = new Collection(name);
      this.collections.set(name, collection);
    }
    return collection;
  }

  applySnapshotRecord(record: SnapshotRecord): void {
    if ('o' in record) this.outbox.set(record.o.seq, record.o);
    else this.collection(record.c).put(record.d);
  }

  /** Applies a journal line that is already known to be valid (it was validated when committed). */
  applyEntry(entry: JournalEntry): void {
    for (const effect of entry.w ?? []) {
      if ('d' in effect) this.collection(effect.c).put(effect.d);
      else this.collection(effect.c).remove(entry.t ?? '', effect.x);
    }
    for (const event of entry.e ?? []) {
      this.outbox.set(event.seq, event);
      this.nextOutboxSeq = Math.max(this.nextOutboxSeq, event.seq + 1);
    }
    for (const seq of entry.p ?? []) this.outbox.delete(seq);
    this.seq = entry.s;
  }

  *snapshotRecords(): Generator<SnapshotRecord> {
    for (const collection of this.collections.values()) {
      for (const doc of collection.allDocs()) yield { c: collection.name, d: doc };
    }
    for (const event of this.outbox.values()) yield { o: event };
  }
}

/** What one commit changes, with how to take it back if a later op (or the write) fails. */
interface Batch {
  tenantId: string;
  effects: Effect[];
  events: OutboxRecord[];
  undo: (() => void)[];
  /** The JSON each written document and event was normalised from, spliced into the journal line. */
  texts: Map<object, string>;
}

class EmbeddedStore implements DocumentStore {
  private readonly state = new State();
  private readonly renderings = new Renderings();
  private readonly journal: JournalWriter;
  private readonly listeners = new OutboxListeners();
  private readonly compactAfter: number;
  private nextCompactionAt: number;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    fsyncPolicy: FsyncPolicy,
    compactAfterBytes = DEFAULT_COMPACT_AFTER,
  ) {
    this.compactAfter = compactAfterBytes;
    const validBytes = this.load();
    this.journal = new JournalWriter(this.file(JOURNAL_FILE), fsyncPolicy, validBytes);
    syncDirectory(dir);
    this.nextCompactionAt = compactAfterBytes;
  }

  async define(spec: CollectionSpec): Promise<void> {
    this.assertOpen();
    if (typeof spec.name !== 'string' || spec.name === '') throw new Error('a collection needs a name');
    this.state.collection(spec.name).define(spec);
  }

  async get<T extends Doc>(collection: string, tenantId: string, id: string): Promise<T | null> {
    const doc = this.defined(collection).get(tenantId, id);
    return doc === undefined ? null : copy<T>(doc);
  }

  async findOne<T extends Doc>(collection: string, tenantId: string, filter: Filter): Promise<T | null> {
    // Lookups by a unique key (idempotency keys, event ids, dedupe keys) are on every write path;
    // answering them from the index keeps a write O(1) in the size of the tenant.
    const candidate = this.defined(collection).uniqueCandidate(tenantId, filter);
    if (candidate !== undefined) {
      return candidate !== null && compileFilter(filter)(candidate) ? copy<T>(candidate) : null;
    }
    const [doc] = this.select(collection, tenantId, filter, undefined, 1);
    return doc === undefined ? null : copy<T>(doc);
  }

  async find<T extends Doc>(
    collection: string,
    tenantId: string,
    filter: Filter,
    options: { sort?: Sort; limit?: number } = {},
  ): Promise<T[]> {
    return this.select(collection, tenantId, filter, options.sort, options.limit).map((doc) => copy<T>(doc));
  }

  async page<T extends Doc>(collection: string, tenantId: string, query: PageQuery): Promise<Page<T>> {
    const read = this.readPage(collection, tenantId, query);
    return { items: read.items.map((doc) => copy<T>(doc)), nextCursor: read.nextCursor };
  }

  // No copy: render only reads the stored document, and its answer is a string.
  readonly pageJson: PageJson = async (collection, tenantId, query, render) => {
    const read = this.readPage(collection, tenantId, query);
    return { items: read.items.map((doc) => this.renderings.of(doc, render)), nextCursor: read.nextCursor };
  };

  async count(collection: string, tenantId: string, filter: Filter): Promise<number> {
    const stored = this.defined(collection);
    const plan = choosePlan(stored.orderedIndexes, tenantId, filter, undefined);
    const counted = plan === null ? null : bucketCount(plan, filter);
    if (counted !== null) return counted;
    let total = 0;
    for (const _doc of candidates(stored, tenantId, filter, undefined, compileFilter(filter), plan)) total++;
    return total;
  }

  async commit(tenantId: string, ops: WriteOp[]): Promise<void> {
    this.assertOpen();
    // Programmer errors (wrong tenant, unknown collection, malformed op) fail before anything applies.
    checkOps(tenantId, ops, (name) => void this.defined(name));
    const batch: Batch = { tenantId, effects: [], events: [], undo: [], texts: new Map() };
    try {
      for (const op of ops) this.apply(batch, op);
      if (batch.effects.length > 0 || batch.events.length > 0) {
        const entry: JournalEntry = { s: this.state.seq + 1, t: tenantId, w: batch.effects, e: batch.events };
        this.journal.append(entry, commitLine(entry, batch.texts));
      }
    } catch (error) {
      for (const undo of batch.undo.reverse()) undo();
      throw error;
    }
    this.afterCommit(batch);
  }

  async pendingOutbox(limit: number): Promise<OutboxRecord[]> {
    this.assertOpen();
    const records: OutboxRecord[] = [];
    for (const record of this.state.outbox.values()) {
      if (records.length >= limit) break;
      records.push(copy(record));
    }
    return records;
  }

  async markPublished(seqs: number[]): Promise<void> {
    this.assertOpen();
    const pending = [...new Set(seqs)].filter((seq) => this.state.outbox.has(seq));
    if (pending.length === 0) return;
    const entry: JournalEntry = { s: this.state.seq + 1, p: pending };
    this.journal.append(entry);
    this.state.applyEntry(entry);
    this.maybeCompact();
  }

  onOutbox(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  // --- loading -----------------------------------------------------------------------------------

  /** Loads the snapshot, replays the journal after it, and returns the journal's trusted length. */
  private load(): number {
    fs.rmSync(this.file(`${SNAPSHOT_FILE}.tmp`), { force: true });
    const snapshot = readSnapshot(this.file(SNAPSHOT_FILE));
    if (snapshot !== null) {
      for (const record of snapshot.records) this.state.applySnapshotRecord(record as SnapshotRecord);
      this.state.seq = snapshot.header.seq;
      this.state.nextOutboxSeq = snapshot.header.nextOutboxSeq;
    }
    const journalFile = this.file(JOURNAL_FILE);
    const journal = readJournal(journalFile);
    for (const line of journal.lines) {
      const entry = line.value as JournalEntry;
      // Lines already in the snapshot (a crash between the snapshot rename and the journal
      // truncation leaves them behind) are skipped.
      if (entry.s > this.state.seq) this.state.applyEntry(entry);
    }
    if (journal.tornLine !== undefined) {
      console.warn(
        `${journalFile}: discarding a torn last line (${journal.tornLine}) left by an interrupted ` +
          'write; that commit had not been acknowledged',
      );
    }
    return journal.validBytes;
  }

  // --- commit --------------------------------------------------------------------------------------

  private apply(batch: Batch, op: WriteOp): void {
    if (op.op === 'emit') {
      const seq = this.state.nextOutboxSeq + batch.events.length;
      batch.events.push(normalised(batch, { ...op.event, seq }));
    } else if (op.op === 'insert') {
      this.insert(batch, op.collection, op.doc);
    } else if (op.op === 'replace') {
      this.replace(batch, op.collection, op.doc, op.expectedVersion);
    } else {
      this.remove(batch, op.collection, op.id, op.expectedVersion);
    }
  }

  private insert(batch: Batch, name: string, input: Doc): void {
    const collection = this.defined(name);
    if (collection.get(batch.tenantId, input.id) !== undefined) {
      throw new StoreConflict('unique', name, `document ${input.id} already exists`);
    }
    const doc = normalised(batch, { ...input, version: 1 });
    this.checkUnique(collection, doc);
    collection.put(doc);
    batch.undo.push(() => collection.remove(batch.tenantId, doc.id));
    batch.effects.push({ c: name, d: doc });
  }

  private replace(batch: Batch, name: string, input: Doc, expectedVersion: number): void {
    const collection = this.defined(name);
    const previous = this.expectVersion(collection, batch.tenantId, input.id, expectedVersion);
    const doc = normalised(batch, { ...input, version: expectedVersion + 1 });
    this.checkUnique(collection, doc);
    collection.put(doc);
    batch.undo.push(() => collection.put(previous));
    batch.effects.push({ c: name, d: doc });
  }

  private remove(batch: Batch, name: string, id: string, expectedVersion: number | undefined): void {
    const collection = this.defined(name);
    const previous = this.expectVersion(collection, batch.tenantId, id, expectedVersion);
    collection.remove(batch.tenantId, id);
    batch.undo.push(() => collection.put(previous));
    batch.effects.push({ c: name, x: id });
  }

  private expectVersion(
    collection: Collection,
    tenantId: string,
    id: string,
    expected: number | undefined,
  ): Doc {
    const stored = collection.get(tenantId, id);
    if (stored === undefined)
      throw new StoreConflict('missing', collection.name, `document ${id} does not exist`);
    if (expected !== undefined && stored.version !== expected) {
      throw new StoreConflict(
        'version',
        collection.name,
        `document ${id} is at version ${stored.version}, not ${expected}`,
      );
    }
    return stored;
  }

  private checkUnique(collection: Collection, doc: Doc): void {
    const conflict = collection.uniqueConflict(doc);
    if (conflict !== null) throw new StoreConflict('unique', collection.name, conflict);
  }

  private afterCommit(batch: Batch): void {
    if (batch.effects.length === 0 && batch.events.length === 0) return;
    this.state.seq++;
    for (const event of batch.events) this.state.outbox.set(event.seq, event);
    this.state.nextOutboxSeq += batch.events.length;
    if (batch.events.length > 0) this.listeners.notify();
    this.maybeCompact();
  }

  // --- reads -------------------------------------------------------------------------------------

  /** A page of stored documents themselves: callers copy or only read them. */
  private readPage(collection: string, tenantId: string, query: PageQuery): Page<Doc> {
    if (!Number.isInteger(query.limit) || query.limit < 1) {
      throw new Error('page limit must be a positive integer');
    }
    const stored = this.defined(collection);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.sort, query.cursor);
    const matches = compileFilter(query.filter);
    const plan = choosePlan(stored.orderedIndexes, tenantId, query.filter, query.sort);
    // One extra item tells whether another page exists without a second read.
    const read =
      plan === null
        ? {
            selected: selectSorted(stored.docs(tenantId), matches, query.sort, query.limit + 1, after),
            stoppedAt: null,
          }
        : readIndexed(
            stored,
            tenantId,
            walk(plan, query.filter, query.sort, after),
            matches,
            query.limit + 1,
          );
    const items = read.selected.slice(0, query.limit);
    const last = items[items.length - 1];
    const next = read.selected.length > query.limit && last !== undefined ? last : read.stoppedAt;
    return {
      items: items.map((entry) => entry.doc),
      nextCursor: next === null ? null : encodeCursor(query.sort, next),
    };
  }

  private select(
    name: string,
    tenantId: string,
    filter: Filter,
    sort: Sort | undefined,
    limit: number | undefined,
  ): Doc[] {
    const stored = this.defined(name);
    const matches = compileFilter(filter);
    const plan = choosePlan(stored.orderedIndexes, tenantId, filter, sort);
    if (sort !== undefined && plan === null) {
      return selectSorted(stored.docs(tenantId), matches, sort, limit ?? Infinity).map((entry) => entry.doc);
    }
    return take(candidates(stored, tenantId, filter, sort, matches, plan), limit ?? Infinity);
  }

  private defined(name: string): Collection {
    this.assertOpen();
    const collection = this.state.collections.get(name);
    if (collection === undefined || !collection.defined) {
      throw new Error(`collection ${name} is not defined; call define() first`);
    }
    return collection;
  }

  // --- compaction and shutdown ---------------------------------------------------------------------

  private maybeCompact(): void {
    if (this.journal.bytes < this.nextCompactionAt) return;
    try {
      this.compact();
      this.nextCompactionAt = this.compactAfter;
    } catch (error) {
      // The commit is already durable in the journal; retry once it has grown by another step
      // instead of failing (or warning on) every commit while e.g. the disk is full.
      this.nextCompactionAt = this.journal.bytes + this.compactAfter;
      console.warn(`${this.dir}: compaction failed, the journal keeps growing`, error);
    }
  }

  /** Snapshot, then empty the journal: a crash in between only leaves lines replay will skip. */
  private compact(): void {
    const header: SnapshotHeader = {
      format: 1,
      seq: this.state.seq,
      nextOutboxSeq: this.state.nextOutboxSeq,
    };
    writeSnapshot(this.file(SNAPSHOT_FILE), header, this.state.snapshotRecords());
    this.journal.truncate();
  }

  private async shutdown(): Promise<void> {
    try {
      if (this.journal.bytes > 0) this.compact();
    } catch (error) {
      // Everything is still in the journal and will be replayed; a failed snapshot only costs time.
      console.warn(`${this.dir}: compaction on close failed; the journal will be replayed on open`, error);
    }
    await this.journal.close();
    this.listeners.clear();
    releases.get(this.dir)?.();
    releases.delete(this.dir);
  }

  private assertOpen(): void {
    if (this.closing !== undefined) throw new Error('the store is closed');
  }

  private file(name: string): string {
    return path.join(this.dir, name);
  }
}

/** A matching document with its sort key, read once per scan rather than once per comparison. */
interface Keyed extends CursorPosition {
  doc: Doc;
}

/** The first `limit` matching documents in sort order, strictly after `after` when given. */
function selectSorted(
  docs: Iterable<Doc>,
  matches: Predicate,
  sort: Sort,
  limit: number,
  after?: CursorPosition,
): Keyed[] {
  const read = pathGetter(sort.field);
  const order = keysetOrder(sort);
  const top = new TopK<Keyed>(limit, order);
  for (const doc of scanOrder(docs, sort)) {
    if (!matches(doc)) continue;
    const entry: Keyed = { value: read(doc), id: doc.id, doc };
    if (after === undefined || order(entry, after) > 0) top.offer(entry);
  }
  return top.sorted();
}

/**
 * Sort keys usually follow insertion order (createdAt, time-prefixed ids), so a descending sort
 * scans newest first: the heap fills with the winners at once and every later document is
 * rejected by one comparison instead of displacing the heap root.
 */
function scanOrder(docs: Iterable<Doc>, sort: Sort): Iterable<Doc> {
  return sort.direction === 'desc' ? Array.from(docs).reverse() : docs;
}

/** The order of a sort, ties broken by id in the same direction (keyset pagination needs a total order). */
function keysetOrder(sort: Sort): (a: CursorPosition, b: CursorPosition) => number {
  const sign = sort.direction === 'desc' ? -1 : 1;
  return (a, b) => {
    const byValue = compareValues(a.value, b.value);
    if (byValue !== 0) return sign * byValue;
    return sign * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  };
}

/**
 * The tenant's matching documents, in `sort` order when given: walked from the ordered index of
 * `plan` when there is one (query-plan.ts), else scanned in insertion order (unsorted reads only).
 */
function* candidates(
  stored: Collection,
  tenantId: string,
  filter: Filter,
  sort: Sort | undefined,
  matches: Predicate,
  plan: Plan | null,
): Generator<Doc> {
  if (plan === null) {
    if (sort !== undefined) throw new Error('a sorted read needs a plan; select() scans instead');
    for (const doc of stored.docs(tenantId)) if (matches(doc)) yield doc;
    return;
  }
  for (const entry of walk(plan, filter, sort)) {
    const doc = stored.get(tenantId, entry.id);
    if (doc !== undefined && matches(doc)) yield doc;
  }
}

function take(docs: Iterable<Doc>, limit: number): Doc[] {
  const taken: Doc[] = [];
  if (limit <= 0) return taken;
  for (const doc of docs) {
    taken.push(doc);
    if (taken.length >= limit) break;
  }
  return taken;
}

export { PAGE_EXAMINE_LIMIT };

/** Up to `want` matching documents from an index walk, and where it stopped if the budget ran out. */
function readIndexed(
  stored: Collection,
  tenantId: string,
  entries: Iterable<Entry>,
  matches: Predicate,
  want: number,
): { selected: Keyed[]; stoppedAt: CursorPosition | null } {
  const selected: Keyed[] = [];
  let examined = 0;
  let lastExamined: Entry | null = null;
  for (const entry of entries) {
    // Everything up to lastExamined has been looked at: the next page continues after it.
    if (examined >= PAGE_EXAMINE_LIMIT) return { selected, stoppedAt: lastExamined };
    examined++;
    lastExamined = entry;
    const doc = stored.get(tenantId, entry.id);
    if (doc === undefined || !matches(doc)) continue;
    selected.push({ value: entry.value, id: entry.id, doc });
    if (selected.length >= want) break;
  }
  return { selected, stoppedAt: null };
}

/**
 * Detaches a caller's object and makes it exactly what the journal will replay (plain JSON),
 * remembering that JSON for the batch's journal line: a written document is turned into text
 * once, not once to normalise it and again to journal it.
 */
function normalised<T extends object>(batch: Batch, value: T): T {
  const text = JSON.stringify(value);
  const copy = JSON.parse(text) as T;
  batch.texts.set(copy, text);
  return copy;
}

/** A commit's journal line as JSON: what JSON.stringify(entry) gives, its documents spliced in. */
function commitLine(entry: JournalEntry, texts: Map<object, string>): string {
  const textOf = (value: object): string => texts.get(value) ?? JSON.stringify(value);
  const effects = (entry.w ?? []).map((effect) =>
    'd' in effect ? `{"c":${JSON.stringify(effect.c)},"d":${textOf(effect.d)}}` : JSON.stringify(effect),
  );
  const events = (entry.e ?? []).map(textOf);
  return `{"s":${entry.s},"t":${JSON.stringify(entry.t)},"w":[${effects.join(',')}],"e":[${events.join(',')}]}`;
}

/**
 * Reads hand out copies so a caller mutating a result never changes stored state. Stored values
 * are plain JSON (normalised), so a walk over objects and arrays copies them exactly, several times
 * faster than structuredClone (which handles every type and cycles): a page of 50 leads copies in
 * tens of microseconds instead of hundreds.
 */
function copy<T>(value: unknown): T {
  return copyJson(value) as T;
}

function copyJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const copied: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = copyJson((value as Record<string, unknown>)[key]);
    // A stored "__proto__" field (JSON.parse keeps it as data) stays data, as in the stored value.
    if (key === '__proto__')
      Object.defineProperty(copied, key, {
        value: field,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copied[key] = field;
  }
  return copied;
}
