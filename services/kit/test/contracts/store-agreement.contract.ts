// Where the embedded store and MongoDB would answer apart, the contract pins one answer (part of
// the document store contract, so it runs on every adapter): documents MongoDB cannot index and
// unique keys over arrays are refused before anything is written; arrays as sort values stop a
// page instead of repeating items; `$exists` takes only booleans; a numeric path segment is
// refused; `$contains` is literal text whatever it holds; find without a sort is by id; pages
// cross value types in MongoDB's order; field names with `.` or `$` round-trip; racing define()
// calls both succeed.
import { InvalidCursor, UnsortableValue } from '../../src/store/cursor.ts';
import { StoreConflict, type Doc, type DocumentStore, type WriteOp } from '../../src/store/port.ts';

const A = 'tenant_a';
const SHAPES = 'shapes';

interface Shape extends Doc {
  code?: unknown;
  tags?: unknown;
  labels?: unknown;
  rank?: unknown;
  label?: string;
  meta?: Record<string, unknown>;
}

const shape = (id: string, fields: Partial<Shape> = {}): Shape => ({
  id,
  tenantId: A,
  version: 1,
  ...fields,
});
const insert = (doc: Doc): WriteOp => ({ op: 'insert', collection: SHAPES, doc });

/** The error a promise rejected with (a test fails if it resolved). */
async function refusal(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => new Error('expected a refusal, but the call succeeded'),
    (reason: unknown) => reason as Error,
  );
  expect(error).toBeInstanceOf(Error);
  expect(error).not.toBeInstanceOf(StoreConflict);
  return error;
}

export function describeAgreementContract(store: () => DocumentStore): void {
  describe('where the stores would differ', () => {
    beforeEach(async () => {
      await store().define({
        name: SHAPES,
        unique: [['code']],
        indexes: [['tags', 'labels'], ['rank'], ['label']],
      });
    });

    const ids = (docs: Doc[]): string[] => docs.map((doc) => doc.id);

    it('refuses arrays in two fields of one index, and takes an array in one', async () => {
      const both = shape('s1', { tags: ['a'], labels: ['b'] });
      expect((await refusal(store().commit(A, [insert(both)]))).message).toMatch(/arrays in tags and labels/);
      expect(await store().get(SHAPES, A, 's1')).toBeNull();
      await store().commit(A, [insert(shape('s2', { tags: ['a', 'b'], labels: 'c' }))]);
      const replaced = shape('s2', { tags: ['a'], labels: ['c'] });
      const replace: WriteOp = { op: 'replace', collection: SHAPES, doc: replaced, expectedVersion: 1 };
      expect((await refusal(store().commit(A, [replace]))).message).toMatch(/arrays in tags and labels/);
      expect((await store().get<Shape>(SHAPES, A, 's2'))?.labels).toBe('c');
    });

    it('refuses an array in a unique key field, and enforces the key on single values', async () => {
      expect((await refusal(store().commit(A, [insert(shape('s1', { code: ['x', 'y'] }))]))).message).toMatch(
        /unique key \[code\]/,
      );
      await store().commit(A, [insert(shape('s2', { code: 'x' }))]);
      await expect(store().commit(A, [insert(shape('s3', { code: 'x' }))])).rejects.toBeInstanceOf(
        StoreConflict,
      );
    });

    it('stops a page at an array sort value instead of repeating items across pages', async () => {
      await store().commit(A, [insert(shape('s1', { rank: [3, 1] })), insert(shape('s2', { rank: [2, 4] }))]);
      const page = store().page(SHAPES, A, { sort: { field: 'rank', direction: 'asc' }, limit: 1 });
      expect(await refusal(page)).toBeInstanceOf(UnsortableValue);
    });

    it('refuses a cursor holding an array as a cursor it did not issue', async () => {
      const body = { f: 'rank', d: 'asc', v: [1, 2], i: 's1' };
      const cursor = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
      const page = store().page(SHAPES, A, { sort: { field: 'rank', direction: 'asc' }, limit: 1, cursor });
      expect(await refusal(page)).toBeInstanceOf(InvalidCursor);
    });

    it('refuses $exists with anything but true or false', async () => {
      await store().commit(A, [insert(shape('s1', { label: 'x' }))]);
      for (const operand of [1, 0, 'yes', null]) {
        const filter = { label: { $exists: operand } } as never;
        expect((await refusal(store().find(SHAPES, A, filter))).message).toMatch(
          /\$exists takes true or false/,
        );
      }
      expect(ids(await store().find(SHAPES, A, { label: { $exists: true } }))).toEqual(['s1']);
      expect(await store().find(SHAPES, A, { label: { $exists: false } })).toEqual([]);
    });

    it('refuses a numeric path segment in filters and sorts', async () => {
      await store().commit(A, [insert(shape('s1', { tags: ['a'], meta: { 0: 'a' } }))]);
      expect((await refusal(store().find(SHAPES, A, { 'tags.0': 'a' }))).message).toMatch(/number/);
      expect((await refusal(store().count(SHAPES, A, { 'meta.0': 'a' }))).message).toMatch(/number/);
      const sorted = store().page(SHAPES, A, { sort: { field: 'meta.0', direction: 'asc' }, limit: 5 });
      expect((await refusal(sorted)).message).toMatch(/number/);
    });

    it('matches $contains as literal text: regex metacharacters, non-ASCII letters in any case, NUL', async () => {
      await store().commit(A, [
        insert(shape('s1', { label: 'a.b*(c)?[d]+$^|{2}\\' })),
        insert(shape('s2', { label: 'abc' })),
        insert(shape('s3', { label: 'Écluse Süd, Øresund' })),
        insert(shape('s4', { label: 'before\u0000after' })),
      ]);
      const containing = async (needle: string): Promise<string[]> =>
        ids(await store().find(SHAPES, A, { label: { $contains: needle } }));
      expect(await containing('b*(c)?[d]+$^|{2}\\')).toEqual(['s1']);
      expect(await containing('a.b')).toEqual(['s1']);
      expect(await containing('.')).toEqual(['s1']);
      expect(await containing('écluse süd')).toEqual(['s3']);
      expect(await containing('ØRESUND')).toEqual(['s3']);
      expect(await containing('e\u0000a')).toEqual(['s4']);
      expect(await containing('\u0000')).toEqual(['s4']);
    });

    it('finds by id without a sort', async () => {
      await store().commit(A, [insert(shape('s_c')), insert(shape('s_a'))]);
      await store().commit(A, [insert(shape('s_b'))]);
      expect(ids(await store().find(SHAPES, A, {}))).toEqual(['s_a', 's_b', 's_c']);
      expect(ids(await store().find(SHAPES, A, {}, { limit: 2 }))).toEqual(['s_a', 's_b']);
    });

    it('pages across value types in one order: missing and null, numbers, strings', async () => {
      await store().commit(A, [
        insert(shape('s1', { rank: 'b' })),
        insert(shape('s2', { rank: 2 })),
        insert(shape('s3', { rank: null })),
        insert(shape('s4', { rank: 'a' })),
        insert(shape('s5')),
        insert(shape('s6', { rank: -1.5 })),
        insert(shape('s7', { rank: '10' })),
      ]);
      const expected = ['s3', 's5', 's6', 's2', 's7', 's4', 's1'];
      for (const direction of ['asc', 'desc'] as const) {
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await store().page(SHAPES, A, {
            sort: { field: 'rank', direction },
            limit: 2,
            ...(cursor === undefined ? {} : { cursor }),
          });
          seen.push(...ids(page.items));
          cursor = page.nextCursor ?? undefined;
        } while (cursor !== undefined);
        expect(seen).toEqual(direction === 'asc' ? expected : [...expected].reverse());
      }
    });

    it('keeps field names holding . or $ inside a document', async () => {
      const meta = { 'a.b': 1, $c: 'two', nested: { 'x.y.z': [1, { $d: null }] } };
      await store().commit(A, [insert(shape('s1', { meta }))]);
      expect((await store().get<Shape>(SHAPES, A, 's1'))?.meta).toEqual(meta);
      const replaced = shape('s1', { meta: { ...meta, 'a.b': 2 } });
      await store().commit(A, [{ op: 'replace', collection: SHAPES, doc: replaced, expectedVersion: 1 }]);
      expect((await store().get<Shape>(SHAPES, A, 's1'))?.meta).toEqual({ ...meta, 'a.b': 2 });
    });

    it('lets define() calls with changed specifications race, and enforces what both declare', async () => {
      await Promise.all([
        store().define({ name: 'racing', unique: [['code']] }),
        store().define({ name: 'racing', unique: [['code'], ['label']], indexes: [['rank']] }),
        store().define({ name: 'racing', unique: [['code']], indexes: [['label']] }),
      ]);
      const doc = (id: string): Doc => ({ id, tenantId: A, version: 1, code: 'same' });
      await store().commit(A, [{ op: 'insert', collection: 'racing', doc: doc('r1') }]);
      await expect(
        store().commit(A, [{ op: 'insert', collection: 'racing', doc: doc('r2') }]),
      ).rejects.toBeInstanceOf(StoreConflict);
    });
  });
}
