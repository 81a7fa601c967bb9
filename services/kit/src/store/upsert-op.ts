// Why: a document that exists at most once per key (a tenant's settings, a counter, an override)
// is written as "insert when there is none yet, else replace the version read"; that choice is
// made here once, so every such write keeps its optimistic check on the version it read.
import type { Doc, WriteOp } from './port.ts';

/** Stores `doc` first (insert) when `current` is absent, else as the next version of `current`. */
export function upsertOp(
  collection: string,
  doc: Doc,
  current: Pick<Doc, 'version'> | null | undefined,
): WriteOp {
  return current
    ? { op: 'replace', collection, doc, expectedVersion: current.version }
    : { op: 'insert', collection, doc };
}
