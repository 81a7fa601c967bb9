// The document store contract: what services rely on from any adapter (embedded or MongoDB).
// Each test opens a fresh, empty store. Assertions are about what a user of the store can observe:
// results, conflicts, and that a failed commit leaves nothing behind.
import { StoreConflict } from '../../src/store/port.ts';
import type { Doc, DocumentStore, Filter, OutboxEvent, WriteOp } from '../../src/store/port.ts';
import { defineIndexedCollection, describeIndexContract } from './store-index.contract.ts';
import { describeAgreementContract } from './store-agreement.contract.ts';
import { describeRelayContract } from './store-relay.contract.ts';

export interface OpenedStore {
  store: DocumentStore;
  /**
   * Opens the same data again; the test closes the previous store first. Omitted by adapters that
   * cannot reopen, in which case the persistence tests are skipped.
   */
  reopen?: () => Promise<DocumentStore>;
  /** Closes whichever store is still open (the first or a reopened one) and removes the data. */
  cleanup: () => Promise<void>;
}

interface Person extends Doc {
  name?: string | null;
  email?: string | null;
  team?: string;
  badge?: number | null;
}

interface Item extends Doc {
  rank?: number | string | null;
  label?: string;
  tags?: string[];
  address?: { city?: string; zip?: string | null };
  score?: number;
  active?: boolean;
}

const A = 'tenant_a';
const B = 'tenant_b';

const person = (tenantId: string, id: string, fields: Partial<Person> = {}): Person => ({
  id,
  tenantId,
  version: 1,
  ...fields,
});

const item = (tenantId: string, id: string, fields: Partial<Item> = {}): Item => ({
  id,
  tenantId,
  version: 1,
  ...fields,
});

const insert = (collection: string, doc: Doc): WriteOp => ({ op: 'insert', collection, doc });

const event = (tenantId: string, id: string, value: unknown = { id }): OutboxEvent => ({
  id,
  tenantId,
  topic: 'test.events',
  key: id,
  value,
});

async function defineCollections(store: DocumentStore): Promise<void> {
  await store.define({ name: 'people', unique: [['email'], ['team', 'badge']], indexes: [['name']] });
  await store.define({ name: 'items', indexes: [['rank'], ['label']] });
  await defineIndexedCollection(store);
}

/** Resolves to the StoreConflict a promise rejected with, failing the test on anything else. */
async function conflictOf(promise: Promise<unknown>): Promise<StoreConflict> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(StoreConflict);
  return error as StoreConflict;
}

/** Resolves to a rejection that is a plain Error, not a conflict (a programmer error). */
async function programmerError(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Error);
  expect(error).not.toBeInstanceOf(StoreConflict);
  return error as Error;
}

const ids = (docs: Doc[]): string[] => docs.map((doc) => doc.id);

export function describeStoreContract(adapterName: string, open: () => Promise<OpenedStore>): void {
  describe(`document store contract: ${adapterName}`, () => {
    let store: DocumentStore;
    let reopenStore: (() => Promise<DocumentStore>) | undefined;
    let cleanup: (() => Promise<void>) | undefined;

    beforeEach(async () => {
      ({ store, reopen: reopenStore, cleanup } = await open());
      await defineCollections(store);
    });

    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    /** Closes and reopens the store (collections are declared again, as a restarted service does). */
    async function restart(): Promise<void> {
      if (reopenStore === undefined) throw new Error('adapter cannot reopen');
      await store.close();
      store = await reopenStore();
      await defineCollections(store);
    }

    describe('documents', () => {
      it('round-trips a document and starts its version at 1', async () => {
        const doc = person(A, 'p1', { name: 'Ada', email: 'ada@example.com', badge: 7 });
        await store.commit(A, [insert('people', doc)]);
        expect(await store.get('people', A, 'p1')).toEqual({ ...doc, version: 1 });
        expect(await store.get('people', A, 'unknown')).toBeNull();
      });

      it('keeps nested objects and arrays intact', async () => {
        const doc = item(A, 'i1', { address: { city: 'Lyon', zip: null }, tags: ['a', 'b'] });
        await store.commit(A, [insert('items', doc)]);
        expect(await store.get('items', A, 'i1')).toEqual(doc);
      });

      it('replace stores the new document at expectedVersion + 1', async () => {
        await store.commit(A, [insert('people', person(A, 'p1', { name: 'Ada' }))]);
        await store.commit(A, [
          {
            op: 'replace',
            collection: 'people',
            doc: person(A, 'p1', { name: 'Ada L.' }),
            expectedVersion: 1,
          },
        ]);
        expect(await store.get('people', A, 'p1')).toEqual(person(A, 'p1', { name: 'Ada L.', version: 2 }));
        // A replace drops fields the new document does not have.
        await store.commit(A, [
          { op: 'replace', collection: 'people', doc: person(A, 'p1', { version: 2 }), expectedVersion: 2 },
        ]);
        expect(await store.get('people', A, 'p1')).toEqual(person(A, 'p1', { version: 3 }));
      });

      it('deletes a document, with or without a version check', async () => {
        await store.commit(A, [insert('people', person(A, 'p1')), insert('people', person(A, 'p2'))]);
        await store.commit(A, [{ op: 'delete', collection: 'people', id: 'p1', expectedVersion: 1 }]);
        await store.commit(A, [{ op: 'delete', collection: 'people', id: 'p2' }]);
        expect(await store.get('people', A, 'p1')).toBeNull();
        expect(await store.get('people', A, 'p2')).toBeNull();
        expect(await store.count('people', A, {})).toBe(0);
      });

      it('hands out copies: mutating a result or a committed object never changes stored state', async () => {
        const doc = item(A, 'i1', { label: 'original', address: { city: 'Lyon' }, tags: ['x'] });
        await store.commit(A, [insert('items', doc)]);
        doc.label = 'mutated after commit';
        doc.address!.city = 'mutated';
        doc.tags!.push('y');

        const read = (await store.get<Item>('items', A, 'i1'))!;
        read.label = 'mutated after read';
        read.address!.city = 'mutated';
        const [found] = await store.find<Item>('items', A, {});
        found!.tags!.push('z');
        const page = await store.page<Item>('items', A, {
          sort: { field: 'id', direction: 'asc' },
          limit: 5,
        });
        page.items[0]!.label = 'mutated page';

        expect(await store.get('items', A, 'i1')).toEqual(
          item(A, 'i1', { label: 'original', address: { city: 'Lyon' }, tags: ['x'] }),
        );
      });

      it('refuses to use a collection that was never defined', async () => {
        await programmerError(store.get('nowhere', A, 'x'));
        await programmerError(store.find('nowhere', A, {}));
        await programmerError(store.commit(A, [insert('nowhere', person(A, 'x'))]));
      });

      it('accepts define() again for the same collection and keeps its documents', async () => {
        await store.commit(A, [insert('people', person(A, 'p1', { email: 'a@x' }))]);
        await defineCollections(store);
        expect(await store.get('people', A, 'p1')).not.toBeNull();
        await conflictOf(store.commit(A, [insert('people', person(A, 'p2', { email: 'a@x' }))]));
      });
    });

    describe('tenant isolation', () => {
      beforeEach(async () => {
        await store.commit(A, [
          insert('people', person(A, 'shared', { name: 'of A', email: 'x@example.com' })),
        ]);
        await store.commit(A, [insert('people', person(A, 'only-a', { name: 'of A' }))]);
        await store.commit(B, [
          insert('people', person(B, 'shared', { name: 'of B', email: 'x@example.com' })),
        ]);
      });

      it('keeps the same id and the same unique key apart in two tenants', async () => {
        expect((await store.get<Person>('people', A, 'shared'))?.name).toBe('of A');
        expect((await store.get<Person>('people', B, 'shared'))?.name).toBe('of B');
      });

      it('never shows one tenant the documents of another', async () => {
        expect(await store.get('people', B, 'only-a')).toBeNull();
        expect(await store.findOne('people', B, { name: 'of A' })).toBeNull();
        expect(await store.find('people', B, {})).toHaveLength(1);
        expect(await store.count('people', B, {})).toBe(1);
        const page = await store.page('people', B, { sort: { field: 'id', direction: 'asc' }, limit: 10 });
        expect(ids(page.items)).toEqual(['shared']);
        expect(await store.count('people', 'tenant_c', {})).toBe(0);
      });

      it("cannot replace or delete another tenant's document", async () => {
        const replace = store.commit(B, [
          { op: 'replace', collection: 'people', doc: person(B, 'only-a'), expectedVersion: 1 },
        ]);
        expect((await conflictOf(replace)).reason).toBe('missing');
        const remove = store.commit(B, [{ op: 'delete', collection: 'people', id: 'only-a' }]);
        expect((await conflictOf(remove)).reason).toBe('missing');
        expect(await store.get('people', A, 'only-a')).not.toBeNull();
      });

      it('rejects ops for another tenant as a programmer error and applies nothing', async () => {
        await programmerError(
          store.commit(A, [insert('people', person(A, 'fine')), insert('people', person(B, 'sneaky'))]),
        );
        await programmerError(store.commit(A, [{ op: 'emit', event: event(B, 'e1') }]));
        expect(await store.get('people', A, 'fine')).toBeNull();
        expect(await store.get('people', B, 'sneaky')).toBeNull();
        expect(await store.pendingOutbox(10)).toEqual([]);
      });
    });

    describe('unique keys', () => {
      it('refuses a second document with a taken key and leaves the store unchanged', async () => {
        await store.commit(A, [insert('people', person(A, 'p1', { email: 'a@x' }))]);
        const conflict = await conflictOf(
          store.commit(A, [insert('people', person(A, 'p2', { email: 'a@x' }))]),
        );
        expect(conflict.reason).toBe('unique');
        expect(conflict.collection).toBe('people');
        expect(await store.get('people', A, 'p2')).toBeNull();
        expect(await store.count('people', A, {})).toBe(1);
      });

      it('refuses to insert an id that already exists', async () => {
        await store.commit(A, [insert('people', person(A, 'p1', { name: 'first' }))]);
        const conflict = await conflictOf(
          store.commit(A, [insert('people', person(A, 'p1', { name: 'again' }))]),
        );
        expect(conflict.reason).toBe('unique');
        expect((await store.get<Person>('people', A, 'p1'))?.name).toBe('first');
      });

      it('does not index documents whose key field is missing or null (sparse)', async () => {
        await store.commit(A, [
          insert('people', person(A, 'n1', { email: null })),
          insert('people', person(A, 'n2', { email: null })),
          insert('people', person(A, 'm1')),
          insert('people', person(A, 'm2')),
          // Compound key (team, badge): one field missing or null is enough to be unindexed.
          insert('people', person(A, 't1', { team: 'red' })),
          insert('people', person(A, 't2', { team: 'red' })),
          insert('people', person(A, 't3', { team: 'red', badge: null })),
        ]);
        expect(await store.count('people', A, {})).toBe(7);
      });

      it('enforces a compound key only on the full combination', async () => {
        await store.commit(A, [
          insert('people', person(A, 'r1', { team: 'red', badge: 1 })),
          insert('people', person(A, 'r2', { team: 'red', badge: 2 })),
          insert('people', person(A, 'b1', { team: 'blue', badge: 1 })),
        ]);
        const conflict = store.commit(A, [insert('people', person(A, 'r3', { team: 'red', badge: 1 }))]);
        expect((await conflictOf(conflict)).reason).toBe('unique');
      });

      it('enforces keys among the ops of one batch', async () => {
        const batch = store.commit(A, [
          insert('people', person(A, 'p1', { email: 'same@x' })),
          insert('people', person(A, 'p2', { email: 'same@x' })),
        ]);
        expect((await conflictOf(batch)).reason).toBe('unique');
        expect(await store.count('people', A, {})).toBe(0);
      });

      it('lets a batch move a key from one document to another', async () => {
        await store.commit(A, [insert('people', person(A, 'p1', { email: 'moving@x' }))]);
        await store.commit(A, [
          { op: 'replace', collection: 'people', doc: person(A, 'p1', { email: null }), expectedVersion: 1 },
          insert('people', person(A, 'p2', { email: 'moving@x' })),
        ]);
        expect((await store.findOne('people', A, { email: 'moving@x' }))?.id).toBe('p2');
      });

      it('finds by a unique key exactly as by a scan: the whole filter must match, in its own tenant', async () => {
        await store.commit(A, [
          insert('people', person(A, 'p1', { email: 'k@x', name: 'kay', team: 'red', badge: 7 })),
        ]);
        await store.commit(B, [insert('people', person(B, 'p9', { email: 'k@x', name: 'other' }))]);
        expect((await store.findOne('people', A, { email: 'k@x' }))?.id).toBe('p1');
        expect((await store.findOne('people', B, { email: 'k@x' }))?.id).toBe('p9');
        expect((await store.findOne('people', A, { email: 'k@x', name: 'kay' }))?.id).toBe('p1');
        expect(await store.findOne('people', A, { email: 'k@x', name: 'someone else' })).toBeNull();
        expect(await store.findOne('people', A, { email: 'missing@x' })).toBeNull();
        expect((await store.findOne('people', A, { team: 'red', badge: 7 }))?.id).toBe('p1');
        expect(await store.findOne('people', A, { team: 'red', badge: 8 })).toBeNull();
        await store.commit(A, [{ op: 'delete', collection: 'people', id: 'p1' }]);
        expect(await store.findOne('people', A, { email: 'k@x' })).toBeNull();
      });

      it('checks replaces: taking a used key conflicts, keeping your own key does not', async () => {
        await store.commit(A, [
          insert('people', person(A, 'p1', { email: 'one@x' })),
          insert('people', person(A, 'p2', { email: 'two@x' })),
        ]);
        const steal = store.commit(A, [
          {
            op: 'replace',
            collection: 'people',
            doc: person(A, 'p2', { email: 'one@x' }),
            expectedVersion: 1,
          },
        ]);
        expect((await conflictOf(steal)).reason).toBe('unique');
        expect((await store.get<Person>('people', A, 'p2'))?.email).toBe('two@x');
        await store.commit(A, [
          {
            op: 'replace',
            collection: 'people',
            doc: person(A, 'p1', { email: 'one@x', name: 'kept' }),
            expectedVersion: 1,
          },
        ]);
        expect((await store.get<Person>('people', A, 'p1'))?.name).toBe('kept');
      });

      it('frees a key when its document is deleted or the field is cleared', async () => {
        await store.commit(A, [
          insert('people', person(A, 'p1', { email: 'deleted@x' })),
          insert('people', person(A, 'p2', { email: 'cleared@x' })),
        ]);
        await store.commit(A, [
          { op: 'delete', collection: 'people', id: 'p1' },
          { op: 'replace', collection: 'people', doc: person(A, 'p2'), expectedVersion: 1 },
        ]);
        await store.commit(A, [
          insert('people', person(A, 'p3', { email: 'deleted@x' })),
          insert('people', person(A, 'p4', { email: 'cleared@x' })),
        ]);
        expect(await store.count('people', A, {})).toBe(3);
      });
    });

    describe('versions and atomic commits', () => {
      beforeEach(async () => {
        await store.commit(A, [insert('people', person(A, 'p1', { name: 'v1' }))]);
        await store.commit(A, [
          { op: 'replace', collection: 'people', doc: person(A, 'p1', { name: 'v2' }), expectedVersion: 1 },
        ]);
      });

      it('refuses a replace with a stale version and keeps the stored document', async () => {
        const stale = store.commit(A, [
          {
            op: 'replace',
            collection: 'people',
            doc: person(A, 'p1', { name: 'lost update' }),
            expectedVersion: 1,
          },
        ]);
        const conflict = await conflictOf(stale);
        expect(conflict.reason).toBe('version');
        expect(await store.get('people', A, 'p1')).toEqual(person(A, 'p1', { name: 'v2', version: 2 }));
      });

      it('refuses a replace or delete of a missing document', async () => {
        const replace = store.commit(A, [
          { op: 'replace', collection: 'people', doc: person(A, 'ghost'), expectedVersion: 1 },
        ]);
        expect((await conflictOf(replace)).reason).toBe('missing');
        const remove = store.commit(A, [{ op: 'delete', collection: 'people', id: 'ghost' }]);
        expect((await conflictOf(remove)).reason).toBe('missing');
        expect(await store.get('people', A, 'ghost')).toBeNull();
      });

      it('refuses a delete with a stale version', async () => {
        const remove = store.commit(A, [
          { op: 'delete', collection: 'people', id: 'p1', expectedVersion: 1 },
        ]);
        expect((await conflictOf(remove)).reason).toBe('version');
        expect(await store.get('people', A, 'p1')).not.toBeNull();
      });

      it('applies nothing when the last op of a batch fails', async () => {
        const batch = store.commit(A, [
          insert('people', person(A, 'new1', { email: 'new1@x' })),
          insert('items', item(A, 'new-item')),
          { op: 'replace', collection: 'people', doc: person(A, 'p1', { name: 'v3' }), expectedVersion: 2 },
          { op: 'delete', collection: 'people', id: 'p1', expectedVersion: 3 },
          { op: 'emit', event: event(A, 'never') },
          { op: 'replace', collection: 'people', doc: person(A, 'ghost'), expectedVersion: 1 },
        ]);
        expect((await conflictOf(batch)).reason).toBe('missing');
        expect(await store.get('people', A, 'new1')).toBeNull();
        expect(await store.get('items', A, 'new-item')).toBeNull();
        expect(await store.get('people', A, 'p1')).toEqual(person(A, 'p1', { name: 'v2', version: 2 }));
        expect(await store.pendingOutbox(10)).toEqual([]);
        // The rolled-back insert did not keep its unique key either.
        await store.commit(A, [insert('people', person(A, 'other', { email: 'new1@x' }))]);
      });

      it('applies the ops of a batch in order (insert then replace in one commit)', async () => {
        await store.commit(A, [
          insert('people', person(A, 'p2', { name: 'first' })),
          {
            op: 'replace',
            collection: 'people',
            doc: person(A, 'p2', { name: 'second' }),
            expectedVersion: 1,
          },
        ]);
        expect(await store.get('people', A, 'p2')).toEqual(person(A, 'p2', { name: 'second', version: 2 }));
      });

      it('lets exactly one of two concurrent replaces of the same version win', async () => {
        const results = await Promise.allSettled(
          ['x', 'y'].map((name) =>
            store.commit(A, [
              { op: 'replace', collection: 'people', doc: person(A, 'p1', { name }), expectedVersion: 2 },
            ]),
          ),
        );
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
        expect((await store.get('people', A, 'p1'))?.version).toBe(3);
      });
    });

    describe('filters', () => {
      beforeEach(async () => {
        await store.commit(A, [
          insert(
            'items',
            item(A, 'i1', { label: 'Alpha Drone', rank: 1, score: 10, active: true, tags: ['red'] }),
          ),
          insert(
            'items',
            item(A, 'i2', { label: 'beta survey', rank: 2, score: 20, active: false, tags: [] }),
          ),
          insert(
            'items',
            item(A, 'i3', { label: 'Gamma', rank: null, score: 30, address: { city: 'Lyon' } }),
          ),
          insert(
            'items',
            item(A, 'i4', { label: 'delta DRONE', score: 40, address: { city: 'Paris', zip: null } }),
          ),
          insert('items', item(A, 'i5', { label: 'epsilon', rank: 'five', tags: ['red', 'blue'] })),
        ]);
        await store.commit(B, [insert('items', item(B, 'b1', { label: 'Alpha Drone', rank: 1 }))]);
      });

      const match = async (filter: Filter): Promise<string[]> =>
        ids(await store.find('items', A, filter, { sort: { field: 'id', direction: 'asc' } }));

      it('matches scalar equality, and $eq', async () => {
        expect(await match({ rank: 1 })).toEqual(['i1']);
        expect(await match({ label: 'Gamma' })).toEqual(['i3']);
        expect(await match({ active: false })).toEqual(['i2']);
        expect(await match({ rank: { $eq: 2 } })).toEqual(['i2']);
        expect(await match({ label: 'gamma' })).toEqual([]);
      });

      it('ANDs conditions on several fields and several operators on one field', async () => {
        expect(await match({ score: { $gte: 20 }, label: { $contains: 'drone' } })).toEqual(['i4']);
        expect(await match({ score: { $gt: 10, $lt: 40 } })).toEqual(['i2', 'i3']);
      });

      it('treats null equality as "missing or null", like MongoDB', async () => {
        expect(await match({ rank: null })).toEqual(['i3', 'i4']);
        expect(await match({ rank: { $eq: null } })).toEqual(['i3', 'i4']);
        expect(await match({ 'address.zip': null })).toEqual(['i1', 'i2', 'i3', 'i4', 'i5']);
      });

      it('$ne matches missing fields, $ne null matches only set values', async () => {
        expect(await match({ rank: { $ne: 1 } })).toEqual(['i2', 'i3', 'i4', 'i5']);
        expect(await match({ rank: { $ne: null } })).toEqual(['i1', 'i2', 'i5']);
        expect(await match({ active: { $ne: true } })).toEqual(['i2', 'i3', 'i4', 'i5']);
      });

      it('$in and $nin (including null for missing)', async () => {
        expect(await match({ rank: { $in: [1, 2] } })).toEqual(['i1', 'i2']);
        expect(await match({ rank: { $in: ['five', null] } })).toEqual(['i3', 'i4', 'i5']);
        expect(await match({ rank: { $in: [] } })).toEqual([]);
        expect(await match({ rank: { $nin: [1, 2] } })).toEqual(['i3', 'i4', 'i5']);
        expect(await match({ rank: { $nin: [null] } })).toEqual(['i1', 'i2', 'i5']);
      });

      it('range operators compare numbers with numbers and strings with strings only', async () => {
        expect(await match({ rank: { $gt: 1 } })).toEqual(['i2']);
        expect(await match({ rank: { $gte: 1 } })).toEqual(['i1', 'i2']);
        expect(await match({ rank: { $lt: 2 } })).toEqual(['i1']);
        expect(await match({ rank: { $lte: 2 } })).toEqual(['i1', 'i2']);
        expect(await match({ rank: { $gte: 'a' } })).toEqual(['i5']);
        expect(await match({ label: { $gte: 'b', $lt: 'e' } })).toEqual(['i2', 'i4']);
      });

      it('$exists tells present (even null) from missing', async () => {
        expect(await match({ rank: { $exists: true } })).toEqual(['i1', 'i2', 'i3', 'i5']);
        expect(await match({ rank: { $exists: false } })).toEqual(['i4']);
        expect(await match({ 'address.zip': { $exists: true } })).toEqual(['i4']);
      });

      it('$contains is a case-insensitive substring on strings', async () => {
        expect(await match({ label: { $contains: 'DRONE' } })).toEqual(['i1', 'i4']);
        expect(await match({ label: { $contains: 'ta su' } })).toEqual(['i2']);
        expect(await match({ score: { $contains: '1' } })).toEqual([]);
      });

      it('reaches into nested objects with dot paths', async () => {
        expect(await match({ 'address.city': 'Lyon' })).toEqual(['i3']);
        expect(await match({ 'address.city': { $in: ['Lyon', 'Paris'] } })).toEqual(['i3', 'i4']);
        expect(await match({ 'address.city': { $exists: false } })).toEqual(['i1', 'i2', 'i5']);
      });

      it('matches an array field when any element matches', async () => {
        expect(await match({ tags: 'red' })).toEqual(['i1', 'i5']);
        expect(await match({ tags: { $in: ['blue'] } })).toEqual(['i5']);
      });

      it('$or takes alternatives, and combines with other conditions', async () => {
        expect(await match({ $or: [{ rank: 1 }, { 'address.city': 'Paris' }] })).toEqual(['i1', 'i4']);
        expect(await match({ score: { $gte: 20 }, $or: [{ rank: 2 }, { rank: null }] })).toEqual([
          'i2',
          'i3',
          'i4',
        ]);
        expect(
          await match({ $or: [{ label: { $contains: 'drone' } }, { tags: 'blue' }], active: true }),
        ).toEqual(['i1']);
      });

      it('refuses unknown operators and an empty $or as programmer errors', async () => {
        await programmerError(store.find('items', A, { rank: { $regex: 'x' } as unknown as Filter[string] }));
        await programmerError(store.find('items', A, { $and: [] } as unknown as Filter));
        await programmerError(store.count('items', A, { $or: [] }));
      });

      it('an empty filter matches every document of the tenant', async () => {
        expect(await match({})).toEqual(['i1', 'i2', 'i3', 'i4', 'i5']);
      });

      it('findOne returns a match or null, count counts matches', async () => {
        expect((await store.findOne('items', A, { label: { $contains: 'gamma' } }))?.id).toBe('i3');
        expect(await store.findOne('items', A, { label: 'nothing' })).toBeNull();
        expect(await store.count('items', A, { label: { $contains: 'drone' } })).toBe(2);
        expect(await store.count('items', A, {})).toBe(5);
        expect(await store.count('items', B, { label: { $contains: 'drone' } })).toBe(1);
      });

      it('find sorts (ties by id) and limits', async () => {
        const byScore = await store.find(
          'items',
          A,
          { score: { $exists: true } },
          {
            sort: { field: 'score', direction: 'desc' },
            limit: 2,
          },
        );
        expect(ids(byScore)).toEqual(['i4', 'i3']);
        // Missing and null sort first ascending; ties on rank fall back to id.
        const byRank = await store.find('items', A, {}, { sort: { field: 'rank', direction: 'asc' } });
        expect(ids(byRank)).toEqual(['i3', 'i4', 'i1', 'i2', 'i5']);
        expect(await store.find('items', A, {}, { limit: 3 })).toHaveLength(3);
      });
    });

    describe('pagination', () => {
      const TOTAL = 250;
      // 250 documents whose `rank` takes 10 values, so most of every page is ties on the sort field.
      const rankOf = (n: number): number => (n * 7) % 10;
      const idOf = (n: number): string => `it_${String(n).padStart(3, '0')}`;

      beforeEach(async () => {
        const ops: WriteOp[] = [];
        for (let n = 0; n < TOTAL; n++) ops.push(insert('items', item(A, idOf(n), { rank: rankOf(n) })));
        await store.commit(A, ops);
        await store.commit(B, [insert('items', item(B, 'other-tenant', { rank: 5 }))]);
      });

      async function walk(direction: 'asc' | 'desc', limit: number, filter?: Filter): Promise<Item[]> {
        const seen: Item[] = [];
        let cursor: string | undefined;
        for (let pages = 0; pages < 1000; pages++) {
          const query = { sort: { field: 'rank', direction }, limit, filter, cursor };
          const page = await store.page<Item>('items', A, query);
          expect(page.items.length).toBeLessThanOrEqual(limit);
          seen.push(...page.items);
          if (page.nextCursor === null) return seen;
          expect(page.items).toHaveLength(limit);
          cursor = page.nextCursor;
        }
        throw new Error('pagination did not end');
      }

      const expectedOrder = (
        direction: 'asc' | 'desc',
        keep: (n: number) => boolean = () => true,
      ): string[] => {
        const all = Array.from({ length: TOTAL }, (_, n) => n).filter(keep);
        all.sort((a, b) => rankOf(a) - rankOf(b) || (idOf(a) < idOf(b) ? -1 : 1));
        const order = all.map(idOf);
        return direction === 'asc' ? order : order.reverse();
      };

      it.each(['asc', 'desc'] as const)(
        'walks every document exactly once in %s order',
        async (direction) => {
          const seen = await walk(direction, 7);
          expect(ids(seen)).toEqual(expectedOrder(direction));
          expect(new Set(ids(seen)).size).toBe(TOTAL);
        },
      );

      it('pages a filtered subset', async () => {
        const seen = await walk('desc', 7, { rank: { $gte: 5 } });
        expect(ids(seen)).toEqual(expectedOrder('desc', (n) => rankOf(n) >= 5));
      });

      it('ends with nextCursor null, including when the last page is exactly full', async () => {
        const page = await store.page('items', A, {
          sort: { field: 'rank', direction: 'asc' },
          limit: TOTAL,
        });
        expect(page.items).toHaveLength(TOTAL);
        expect(page.nextCursor).toBeNull();
        const empty = await store.page('items', A, {
          filter: { rank: 99 },
          sort: { field: 'rank', direction: 'asc' },
          limit: 5,
        });
        expect(empty).toEqual({ items: [], nextCursor: null });
      });

      it('never repeats or skips an item when documents are created between pages', async () => {
        const sort = { field: 'rank', direction: 'asc' } as const;
        const first = await store.page<Item>('items', A, { sort, limit: 7 });
        // One document before the cursor position, one after it (same rank, later id), one at the end.
        await store.commit(A, [
          insert('items', item(A, 'it_000a', { rank: -1 })),
          insert('items', item(A, 'zz_late', { rank: 0 })),
          insert('items', item(A, 'zz_last', { rank: 9 })),
        ]);
        const rest: Item[] = [];
        let cursor = first.nextCursor;
        while (cursor !== null) {
          const page = await store.page<Item>('items', A, { sort, limit: 7, cursor });
          rest.push(...page.items);
          cursor = page.nextCursor;
        }
        const seen = [...ids(first.items), ...ids(rest)];
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen).toEqual(expect.arrayContaining([...expectedOrder('asc'), 'zz_late', 'zz_last']));
        expect(seen).not.toContain('it_000a');
      });

      it('pageJson answers the same page rendered, and a rewritten document rendered anew', async () => {
        const sort = { field: 'rank', direction: 'desc' } as const;
        const render = (doc: Item) => JSON.stringify({ id: doc.id, rank: doc.rank, v: doc.version });
        const expectSamePage = async (cursor?: string) => {
          const page = await store.page<Item>('items', A, { sort, limit: 7, cursor });
          const json = await store.pageJson<Item>('items', A, { sort, limit: 7, cursor }, render);
          expect(json).toEqual({ items: page.items.map(render), nextCursor: page.nextCursor });
          return json;
        };
        const first = await expectSamePage();
        await expectSamePage(first.nextCursor!);
        const top = JSON.parse(first.items[0]!) as { id: string; rank: number };
        // Replaced (a new version), then deleted and inserted again with the same id at version 1.
        await store.commit(A, [
          { op: 'replace', collection: 'items', doc: item(A, top.id, { rank: 9.5 }), expectedVersion: 1 },
        ]);
        expect((await expectSamePage()).items[0]).toBe(JSON.stringify({ id: top.id, rank: 9.5, v: 2 }));
        await store.commit(A, [{ op: 'delete', collection: 'items', id: top.id }]);
        await store.commit(A, [insert('items', item(A, top.id, { rank: 9.25 }))]);
        expect((await expectSamePage()).items[0]).toBe(JSON.stringify({ id: top.id, rank: 9.25, v: 1 }));
      });

      it('refuses a cursor issued for another sort or tampered with', async () => {
        const first = await store.page('items', A, { sort: { field: 'rank', direction: 'asc' }, limit: 7 });
        const cursor = first.nextCursor!;
        await expect(
          store.page('items', A, { sort: { field: 'rank', direction: 'desc' }, limit: 7, cursor }),
        ).rejects.toThrow();
        await expect(
          store.page('items', A, {
            sort: { field: 'rank', direction: 'asc' },
            limit: 7,
            cursor: 'not-a-cursor',
          }),
        ).rejects.toThrow();
      });
    });

    describeIndexContract(() => store, restart);

    describeRelayContract(() => store);

    describeAgreementContract(() => store);

    describe('outbox', () => {
      it('returns unpublished events each tenant in commit order, seqs counted per tenant', async () => {
        await store.commit(A, [insert('people', person(A, 'p1')), { op: 'emit', event: event(A, 'e1') }]);
        await store.commit(B, [{ op: 'emit', event: event(B, 'e2', { n: 2 }) }]);
        await store.commit(A, [
          { op: 'emit', event: event(A, 'e3') },
          { op: 'emit', event: event(A, 'e4') },
        ]);

        const pending = await store.pendingOutbox(10);
        expect(pending.map((record) => record.id)).toEqual(['e1', 'e2', 'e3', 'e4']);
        const seqs = pending.map((record) => record.seq);
        expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
        // One counter per tenant (the ordering key): tenant B's first event is its seq 1.
        expect(pending.map((record) => [record.tenantId, record.seq])).toEqual([
          [A, 1],
          [B, 1],
          [A, 2],
          [A, 3],
        ]);
        expect(pending[1]).toEqual({ ...event(B, 'e2', { n: 2 }), seq: seqs[1] });
        expect((await store.pendingOutbox(2)).map((record) => record.id)).toEqual(['e1', 'e2']);
      });

      it('stops returning events once marked published', async () => {
        await store.commit(A, [{ op: 'emit', event: event(A, 'e1') }]);
        await store.commit(A, [{ op: 'emit', event: event(A, 'e2') }]);
        await store.commit(A, [{ op: 'emit', event: event(A, 'e3') }]);
        const [first, , third] = await store.pendingOutbox(10);
        await store.markPublished([first!, third!]);
        expect((await store.pendingOutbox(10)).map((record) => record.id)).toEqual(['e2']);
        // Marking again (a relay retry) is harmless.
        await store.markPublished([first!]);
        expect(await store.pendingOutbox(10)).toHaveLength(1);
      });

      it('gives later events higher seqs than earlier, already published ones', async () => {
        await store.commit(A, [{ op: 'emit', event: event(A, 'e1') }]);
        const [first] = await store.pendingOutbox(1);
        await store.markPublished([first!]);
        await store.commit(A, [{ op: 'emit', event: event(A, 'e2') }]);
        const [second] = await store.pendingOutbox(1);
        expect(second!.seq).toBeGreaterThan(first!.seq);
      });

      it('notifies listeners after a commit that emitted events, until unsubscribed', async () => {
        let calls = 0;
        const unsubscribe = store.onOutbox(() => calls++);
        await store.commit(A, [insert('people', person(A, 'p1'))]);
        await new Promise((resolve) => setTimeout(resolve, 10));
        expect(calls).toBe(0);
        await store.commit(A, [{ op: 'emit', event: event(A, 'e1') }]);
        await new Promise((resolve) => setTimeout(resolve, 10));
        expect(calls).toBe(1);
        unsubscribe();
        await store.commit(A, [{ op: 'emit', event: event(A, 'e2') }]);
        await new Promise((resolve) => setTimeout(resolve, 10));
        expect(calls).toBe(1);
      });
    });

    describe('lifecycle', () => {
      it('rejects calls after close', async () => {
        await store.close();
        await expect(store.get('people', A, 'p1')).rejects.toThrow();
        await expect(store.commit(A, [insert('people', person(A, 'p1'))])).rejects.toThrow();
        await expect(store.pendingOutbox(1)).rejects.toThrow();
      });

      it('keeps documents, versions, unique keys and outbox state across a reopen', async () => {
        if (reopenStore === undefined) return;
        await store.commit(A, [
          insert('people', person(A, 'p1', { email: 'kept@x', name: 'one' })),
          insert('people', person(A, 'p2', { name: 'deleted' })),
          { op: 'emit', event: event(A, 'e1') },
        ]);
        await store.commit(A, [
          {
            op: 'replace',
            collection: 'people',
            doc: person(A, 'p1', { email: 'kept@x', name: 'two' }),
            expectedVersion: 1,
          },
          { op: 'delete', collection: 'people', id: 'p2' },
          { op: 'emit', event: event(A, 'e2') },
        ]);
        await store.commit(B, [
          insert('people', person(B, 'p1', { email: 'kept@x' })),
          { op: 'emit', event: event(B, 'e3') },
        ]);
        const [e1] = await store.pendingOutbox(1);
        await store.markPublished([e1!]);

        await restart();
        expect(await store.get('people', A, 'p1')).toEqual(
          person(A, 'p1', { email: 'kept@x', name: 'two', version: 2 }),
        );
        expect(await store.get('people', A, 'p2')).toBeNull();
        expect(await store.get('people', B, 'p1')).toEqual(person(B, 'p1', { email: 'kept@x' }));
        // How tenants interleave is the adapter's choice; within a tenant, commit order.
        expect((await store.pendingOutbox(10)).map((record) => record.id).sort()).toEqual(['e2', 'e3']);
        await conflictOf(store.commit(A, [insert('people', person(A, 'p3', { email: 'kept@x' }))]));

        // Seqs keep growing after a restart.
        const before = Math.max(...(await store.pendingOutbox(10)).map((record) => record.seq));
        await store.commit(A, [{ op: 'emit', event: event(A, 'e4') }]);
        const after = await store.pendingOutbox(10);
        expect(after.map((record) => record.id).sort()).toEqual(['e2', 'e3', 'e4']);
        const ofA = after.filter((record) => record.tenantId === A);
        expect(ofA.map((record) => record.id)).toEqual(['e2', 'e4']);
        expect(ofA[1]!.seq).toBeGreaterThan(before);
      });
    });
  });
}
