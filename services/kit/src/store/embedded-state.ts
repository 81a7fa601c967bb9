// The embedded store's in-memory state (collections, pending outbox events, the commit counter)
// and the shapes of what the journal and the snapshot hold: one place that knows how a journal
// line or a snapshot record changes the state, for the write path and for loading alike.
import { Collection } from './collection.ts';
import { PendingOutbox } from './pending-outbox.ts';
import type { Doc, OutboxRecord } from './port.ts';

/** A document change as journaled: the resulting document, or the id of a deleted one. */
export type Effect = { c: string; d: Doc } | { c: string; x: string };

/**
 * A journal line: a commit (tenant, effects, events) or a batch of published outbox records, each
 * `[tenantId, seq]` (older versions wrote a bare global seq, which was unique across tenants).
 */
export interface JournalEntry {
  s: number;
  t?: string;
  w?: Effect[];
  e?: OutboxRecord[];
  p?: ([string, number] | number)[];
}

/** A snapshot record: a document of a collection, or a pending outbox event. */
export type SnapshotRecord = { c: string; d: Doc } | { o: OutboxRecord };

/** The in-memory state and the bookkeeping that goes into snapshots. */
export class State {
  readonly collections = new Map<string, Collection>();
  /** Unpublished events and the outbox counter per tenant. */
  readonly outbox = new PendingOutbox();
  seq = 0;

  collection(name: string): Collection {
    let collection = this.collections.get(name);
    if (collection === undefined) {
      collection = new Collection(name);
      this.collections.set(name, collection);
    }
    return collection;
  }

  applySnapshotRecord(record: SnapshotRecord): void {
    if ('o' in record) this.outbox.add(record.o);
    else this.collection(record.c).put(record.d);
  }

  /** Applies a journal line that is already known to be valid (it was validated when committed). */
  applyEntry(entry: JournalEntry): void {
    for (const effect of entry.w ?? []) {
      if ('d' in effect) this.collection(effect.c).put(effect.d);
      else this.collection(effect.c).remove(entry.t ?? '', effect.x);
    }
    for (const event of entry.e ?? []) this.outbox.add(event);
    for (const published of entry.p ?? []) {
      if (typeof published === 'number') this.outbox.removeGlobalSeq(published);
      else this.outbox.remove({ tenantId: published[0], seq: published[1] });
    }
    this.seq = entry.s;
  }

  *snapshotRecords(): Generator<SnapshotRecord> {
    for (const collection of this.collections.values()) {
      for (const doc of collection.allDocs()) yield { c: collection.name, d: doc };
    }
    for (const event of this.outbox.all()) yield { o: event };
  }
}
