// The embedded document store: every collection in memory, made durable by an append-only journal
// (one checksummed line per commit, written before commit resolves) and periodic snapshots.
// This is what `npm start` uses; query semantics match the MongoDB adapter (see filter.ts).
// This module opens the store and ties its parts together: the state (embedded-state.ts), the
// write path (embedded-writes.ts), the read path (embedded-reads.ts), loading and compaction.
//
// Stored documents are plain JSON: a document is normalised through JSON on commit (undefined
// fields dropped, Dates become ISO strings), so what a read returns before a restart is exactly
// what it returns after one.
import fs from 'node:fs';
import path from 'node:path';
import { lockDirectory } from '../files/dir-lock.ts';
import { makePrivateDirSync, tightenTreeSync } from '../files/private-files.ts';
import type { Collection } from './collection.ts';
import { checkOps } from './check-ops.ts';
import { copy, countMatching, readPage, select } from './embedded-reads.ts';
import { State, type JournalEntry, type SnapshotRecord } from './embedded-state.ts';
import { Leases } from './leases.ts';
import { applyOp, changes, commitLine, newBatch, type Batch } from './embedded-writes.ts';
import { OutboxListeners } from './outbox-listeners.ts';
import { compileFilter } from './filter.ts';
import { JournalWriter, readJournal, type FsyncPolicy } from './journal.ts';
import type {
  LeaseFence,
  LeaseGrant,
  CollectionSpec,
  Doc,
  DocumentStore,
  Filter,
  OutboxPosition,
  OutboxRecord,
  Page,
  PageJson,
  PageQuery,
  Sort,
  WriteOp,
} from './port.ts';
import { FIND_ORDER, LeaseLost } from './port.ts';
import { Renderings } from './renderings.ts';
import { PAGE_EXAMINE_LIMIT } from './scan-budget.ts';
import { readSnapshot, syncDirectory, writeSnapshot, type SnapshotHeader } from './snapshot.ts';
import { effectiveFsync } from '../files/fd-sync.ts';

export { PAGE_EXAMINE_LIMIT };

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
    const fsync = effectiveFsync(options.fsync ?? 'interval', `the document store in ${dir}`);
    const store = new EmbeddedStore(dir, fsync, options.compactAfterBytes);
    releases.set(dir, release);
    return store;
  } catch (err) {
    release();
    throw err;
  }
}

class EmbeddedStore implements DocumentStore {
  private readonly state = new State();
  private readonly renderings = new Renderings();
  private readonly journal: JournalWriter;
  private readonly listeners = new OutboxListeners();
  /** In memory: only this process can open the store (its directory lock), so only it can hold one. */
  private readonly leases = new Leases();
  private readonly compactAfter: number;
  private nextCompactionAt: number;
  private closing: Promise<void> | undefined;

  private readonly dir: string;
  constructor(dir: string, fsyncPolicy: FsyncPolicy, compactAfterBytes = DEFAULT_COMPACT_AFTER) {
    this.dir = dir;
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
    const [doc] = select(this.defined(collection), tenantId, filter, undefined, 1);
    return doc === undefined ? null : copy<T>(doc);
  }

  async find<T extends Doc>(
    collection: string,
    tenantId: string,
    filter: Filter,
    options: { sort?: Sort; limit?: number } = {},
  ): Promise<T[]> {
    const sort = options.sort ?? FIND_ORDER;
    return select(this.defined(collection), tenantId, filter, sort, options.limit).map((doc) => copy<T>(doc));
  }

  async page<T extends Doc>(collection: string, tenantId: string, query: PageQuery): Promise<Page<T>> {
    const read = readPage(this.defined(collection), tenantId, query);
    return { items: read.items.map((doc) => copy<T>(doc)), nextCursor: read.nextCursor };
  }

  // No copy: render only reads the stored document, and its answer is a string.
  readonly pageJson: PageJson = async (collection, tenantId, query, render) => {
    const read = readPage(this.defined(collection), tenantId, query);
    return { items: read.items.map((doc) => this.renderings.of(doc, render)), nextCursor: read.nextCursor };
  };

  async count(collection: string, tenantId: string, filter: Filter): Promise<number> {
    return countMatching(this.defined(collection), tenantId, filter);
  }

  async commit(tenantId: string, ops: WriteOp[]): Promise<void> {
    this.assertOpen();
    // Programmer errors (wrong tenant, unknown collection, malformed op) fail before anything applies.
    checkOps(tenantId, ops, (name) => this.defined(name).declared);
    const batch = newBatch(tenantId);
    try {
      for (const op of ops) applyOp(this.state, (name) => this.defined(name), batch, op);
      if (changes(batch)) {
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
    return this.state.outbox.first(limit).map((record) => copy<OutboxRecord>(record));
  }

  async markPublished(records: OutboxPosition[], fence?: LeaseFence): Promise<void> {
    this.assertOpen();
    if (fence !== undefined && !this.leases.holds(fence)) throw new LeaseLost(fence);
    const pending = new Map<string, [string, number]>();
    for (const { tenantId, seq } of records) {
      if (this.state.outbox.has({ tenantId, seq })) pending.set(`${seq}\u0000${tenantId}`, [tenantId, seq]);
    }
    if (pending.size === 0) return;
    const entry: JournalEntry = { s: this.state.seq + 1, p: [...pending.values()] };
    this.journal.append(entry);
    this.state.applyEntry(entry);
    this.maybeCompact();
  }

  onOutbox(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  async acquireLease(name: string, owner: string, ttlMs: number): Promise<LeaseGrant | null> {
    this.assertOpen();
    return this.leases.acquire(name, owner, ttlMs);
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    this.leases.release(name, owner);
  }

  /** In memory: it answers for as long as it is open. */
  ping(): Promise<boolean> {
    return Promise.resolve(this.closing === undefined);
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
      for (const [tenantId, seq] of snapshot.header.outboxSeqs ?? [])
        this.state.outbox.noteSeq(tenantId, seq);
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

  private afterCommit(batch: Batch): void {
    if (!changes(batch)) return;
    this.state.seq++;
    for (const event of batch.events) this.state.outbox.add(event);
    if (batch.events.length > 0) this.listeners.notify();
    this.maybeCompact();
  }

  // --- reads -------------------------------------------------------------------------------------

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
      outboxSeqs: this.state.outbox.counters(),
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
