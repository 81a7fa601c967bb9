// The embedded store's write path: one commit's ops applied to the in-memory collections as a
// batch (with how to undo each, should a later op or the journal write fail), and the batch's
// journal line. Versions are assigned here, not trusted from the caller: an insert stores
// version 1 and a replace stores expectedVersion + 1, whatever `doc.version` said.
import type { Collection } from './collection.ts';
import type { Effect, JournalEntry, State } from './embedded-state.ts';
import { StoreConflict, type Doc, type OutboxRecord, type WriteOp } from './port.ts';

/** What one commit changes, with how to take it back if a later op (or the write) fails. */
export interface Batch {
  tenantId: string;
  effects: Effect[];
  events: OutboxRecord[];
  undo: (() => void)[];
  /** The JSON each written document and event was normalised from, spliced into the journal line. */
  texts: Map<object, string>;
}

/** A defined collection by name (throws for an undefined one). */
export type CollectionLookup = (name: string) => Collection;

export function newBatch(tenantId: string): Batch {
  return { tenantId, effects: [], events: [], undo: [], texts: new Map() };
}

/** Applies one op to the collections, recording its effect and its undo in the batch. */
export function applyOp(state: State, defined: CollectionLookup, batch: Batch, op: WriteOp): void {
  if (op.op === 'emit') {
    const seq = state.outbox.nextSeq(batch.tenantId, batch.events.length);
    batch.events.push(normalised(batch, { ...op.event, seq }));
  } else if (op.op === 'insert') {
    insert(batch, defined(op.collection), op.doc);
  } else if (op.op === 'replace') {
    replace(batch, defined(op.collection), op.doc, op.expectedVersion);
  } else {
    remove(batch, defined(op.collection), op.id, op.expectedVersion);
  }
}

/** True when the batch changes anything (an empty one writes no journal line). */
export function changes(batch: Batch): boolean {
  return batch.effects.length > 0 || batch.events.length > 0;
}

function insert(batch: Batch, collection: Collection, input: Doc): void {
  if (collection.get(batch.tenantId, input.id) !== undefined) {
    throw new StoreConflict('unique', collection.name, `document ${input.id} already exists`);
  }
  const doc = normalised(batch, { ...input, version: 1 });
  checkUnique(collection, doc);
  collection.put(doc);
  batch.undo.push(() => collection.remove(batch.tenantId, doc.id));
  batch.effects.push({ c: collection.name, d: doc });
}

function replace(batch: Batch, collection: Collection, input: Doc, expectedVersion: number): void {
  const previous = expectVersion(collection, batch.tenantId, input.id, expectedVersion);
  const doc = normalised(batch, { ...input, version: expectedVersion + 1 });
  checkUnique(collection, doc);
  collection.put(doc);
  batch.undo.push(() => collection.put(previous));
  batch.effects.push({ c: collection.name, d: doc });
}

function remove(batch: Batch, collection: Collection, id: string, expectedVersion: number | undefined): void {
  const previous = expectVersion(collection, batch.tenantId, id, expectedVersion);
  collection.remove(batch.tenantId, id);
  batch.undo.push(() => collection.put(previous));
  batch.effects.push({ c: collection.name, x: id });
}

function expectVersion(
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

function checkUnique(collection: Collection, doc: Doc): void {
  const conflict = collection.uniqueConflict(doc);
  if (conflict !== null) throw new StoreConflict('unique', collection.name, conflict);
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
export function commitLine(entry: JournalEntry, texts: Map<object, string>): string {
  const textOf = (value: object): string => texts.get(value) ?? JSON.stringify(value);
  const effects = (entry.w ?? []).map((effect) =>
    'd' in effect ? `{"c":${JSON.stringify(effect.c)},"d":${textOf(effect.d)}}` : JSON.stringify(effect),
  );
  const events = (entry.e ?? []).map(textOf);
  return `{"s":${entry.s},"t":${JSON.stringify(entry.t)},"w":[${effects.join(',')}],"e":[${events.join(',')}]}`;
}
