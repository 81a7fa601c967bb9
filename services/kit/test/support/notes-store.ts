// The store the keyed-write tests write into: a temporary embedded store with the idempotency
// collection and a `notes` collection whose titles are unique, opened before each test and
// removed after it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from '@jest/globals';
import { openEmbeddedStore } from '../../src/store/embedded.ts';
import type { Doc, DocumentStore } from '../../src/store/port.ts';
import { idempotencyCollectionSpec } from '../../src/write/index.ts';

export const NOTES = 'notes';

export interface Note extends Doc {
  title: string;
}

/** Registers the per-test store; the returned function gives the current test's store. */
export function notesStoreEach(prefix: string): () => DocumentStore {
  let dir = '';
  let store: DocumentStore | undefined;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    store = await openEmbeddedStore({ dir, fsync: 'never' });
    await store.define(idempotencyCollectionSpec);
    await store.define({ name: NOTES, unique: [['title']] });
  });
  afterEach(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!store) throw new Error('the notes store is opened before each test');
    return store;
  };
}
