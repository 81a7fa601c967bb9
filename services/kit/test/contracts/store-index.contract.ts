// Pages read through an ordered index (part of the document store contract, so it runs on every
// adapter): each page equals what a full scan and sort of the tenant gives, the order is total
// (same-millisecond ties break by id, the same on every read), and paging while documents are
// inserted, deleted or moved along the sort key never repeats or loses a document that stayed put.
// Counts are small on purpose: this checks results, not speed (speed is `npm run bench`).
import type { Doc, DocumentStore, Filter, Sort, WriteOp } from '../../src/store/port.ts';

interface Entry extends Doc {
  status: string;
  createdAt: string;
  ownerId?: string;
  tags?: string[];
  note?: string;
}

const A = 'tenant_a';
const B = 'tenant_b';
const ENTRIES = 'entries';
const STATUSES = ['new', 'contacted', 'won', 'lost'];
const NEWEST: Sort = { field: 'createdAt', direction: 'desc' };

export async function defineIndexedCollection(store: DocumentStore): Promise<void> {
  await store.define({
    name: ENTRIES,
    indexes: [['createdAt'], ['status', 'createdAt'], ['ownerId', 'createdAt'], ['tags', 'createdAt']],
  });
}

/** A deterministic pseudo-random sequence (xorshift), so every run writes the same data. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** Many entries share a millisecond: four per instant, so ties on createdAt are the common case. */
const instant = (n: number): string => new Date(Date.UTC(2026, 0, 1) + Math.floor(n / 4)).toISOString();
const idOf = (n: number): string => `e_${String((n * 7919) % 1000).padStart(3, '0')}_${n}`;

function entry(n: number): Entry {
  const entryDoc: Entry = {
    id: idOf(n),
    tenantId: A,
    version: 1,
    status: STATUSES[n % STATUSES.length] as string,
    createdAt: instant(n),
    note: n % 5 === 0 ? `Drone survey ${n}` : `site visit ${n}`,
  };
  if (n % 3 !== 0) entryDoc.ownerId = `u_${n % 3}`;
  if (n % 2 === 0) entryDoc.tags = n % 4 === 0 ? ['roof', 'urgent'] : ['roof'];
  return entryDoc;
}

const insert = (doc: Doc): WriteOp => ({ op: 'insert', collection: ENTRIES, doc });

/** What the page order must be: every matching document, sorted by (createdAt, id). */
function reference(docs: Entry[], keep: (doc: Entry) => boolean, sort: Sort): string[] {
  const order = docs.filter(keep).sort((a, b) => {
    const byValue = a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
    return byValue || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  });
  const ids = order.map((doc) => doc.id);
  return sort.direction === 'asc' ? ids : ids.reverse();
}

export function describeIndexContract(store: () => DocumentStore, restart: () => Promise<void>): void {
  describe('pages from ordered indexes', () => {
    const TOTAL = 240;
    const all = Array.from({ length: TOTAL }, (_, n) => entry(n));

    beforeEach(async () => {
      await store().commit(A, all.map(insert));
      await store().commit(B, [insert({ ...entry(0), tenantId: B })]);
    });

    /** Every page of a list, with each page's cursor. */
    async function walk(
      filter: Filter | undefined,
      sort: Sort,
      limit: number,
    ): Promise<{ ids: string[]; cursors: (string | null)[] }> {
      const ids: string[] = [];
      const cursors: (string | null)[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 1000; pages++) {
        const page = await store().page<Entry>(ENTRIES, A, { filter, sort, limit, cursor });
        ids.push(...page.items.map((doc) => doc.id));
        cursors.push(page.nextCursor);
        if (page.nextCursor === null) return { ids, cursors };
        cursor = page.nextCursor;
      }
      throw new Error('pagination did not end');
    }

    const cases: [string, Filter | undefined, (doc: Entry) => boolean][] = [
      ['the default order', undefined, () => true],
      ['a status', { status: 'won' }, (doc) => doc.status === 'won'],
      [
        'a set of statuses',
        { status: { $in: ['new', 'won'] } },
        (doc) => ['new', 'won'].includes(doc.status),
      ],
      ['an owner', { ownerId: 'u_1' }, (doc) => doc.ownerId === 'u_1'],
      ['a missing owner (null)', { ownerId: null }, (doc) => doc.ownerId === undefined],
      ['an array element', { tags: 'urgent' }, (doc) => doc.tags?.includes('urgent') === true],
      [
        'two elements of one array field',
        { tags: { $in: ['roof', 'urgent'] } },
        (doc) => doc.tags !== undefined,
      ],
      [
        'a range on the sort field',
        { createdAt: { $gte: instant(100), $lt: instant(180) } },
        (doc) => doc.createdAt >= instant(100) && doc.createdAt < instant(180),
      ],
      [
        'a status and free text',
        { status: 'new', $or: [{ note: { $contains: 'DRONE' } }] },
        (doc) => doc.status === 'new' && doc.note?.toLowerCase().includes('drone') === true,
      ],
    ];

    it.each(cases)('pages %s exactly like a sort of every match, both ways', async (_name, filter, keep) => {
      for (const sort of [NEWEST, { field: 'createdAt', direction: 'asc' } as const]) {
        const { ids } = await walk(filter, sort, 9);
        expect(ids).toEqual(reference(all, keep, sort));
      }
    });

    it('gives the same pages and cursors on every read and after a restart', async () => {
      const first = await walk({ status: 'contacted' }, NEWEST, 7);
      expect(await walk({ status: 'contacted' }, NEWEST, 7)).toEqual(first);
      await restart();
      expect(await walk({ status: 'contacted' }, NEWEST, 7)).toEqual(first);
    });

    it('continues a cursor across inserts, sort-key moves and deletes between page reads', async () => {
      const first = await store().page<Entry>(ENTRIES, A, {
        filter: { status: 'won' },
        sort: NEWEST,
        limit: 10,
      });
      const seen = first.items.map((doc) => doc.id);
      const cursorEntry = first.items[first.items.length - 1] as Entry;
      const unread = reference(all, (doc) => doc.status === 'won', NEWEST).slice(10);
      const moved = all.find((doc) => doc.id === unread[3]) as Entry;
      const deleted = unread[5] as string;
      // Sorts just before the cursor's id ('!' is below every character of an id).
      const smaller = `${cursorEntry.id.slice(0, -1)}!`;
      // A tie with the cursor's instant on either side of its id, a document moved further along the
      // unread part, one deleted, one new document already behind the cursor (never shown).
      await store().commit(A, [
        insert({ ...entry(1000), status: 'won', createdAt: cursorEntry.createdAt, id: `${cursorEntry.id}~` }),
        insert({ ...entry(1001), status: 'won', createdAt: cursorEntry.createdAt, id: smaller }),
        insert({ ...entry(1002), status: 'won', createdAt: instant(TOTAL + 10), id: 'e_new_head' }),
        {
          op: 'replace',
          collection: ENTRIES,
          doc: { ...moved, createdAt: '2025-12-31T00:00:00.000Z' },
          expectedVersion: 1,
        },
        { op: 'delete', collection: ENTRIES, id: deleted },
      ]);
      let cursor = first.nextCursor;
      while (cursor !== null) {
        const page = await store().page<Entry>(ENTRIES, A, {
          filter: { status: 'won' },
          sort: NEWEST,
          limit: 10,
          cursor,
        });
        seen.push(...page.items.map((doc) => doc.id));
        cursor = page.nextCursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      const stayed = unread.filter((id) => id !== moved.id && id !== deleted);
      expect(seen.filter((id) => stayed.includes(id))).toEqual(stayed);
      expect(seen).not.toContain(deleted);
      expect(seen).not.toContain('e_new_head');
      // The tie with a smaller id comes after the cursor in newest-first order; the larger one before.
      expect(seen).toContain(smaller);
      expect(seen).not.toContain(`${cursorEntry.id}~`);
      expect(seen.filter((id) => id === moved.id)).toHaveLength(1);
      expect(seen[seen.length - 1]).toBe(moved.id);
    });

    it('never repeats or loses a document that stays put while writes run between and during reads', async () => {
      const random = sequence(13);
      const untouched = new Set(all.map((doc) => doc.id));
      const seen: string[] = [];
      let cursor: string | undefined;
      let created = 0;
      for (let round = 0; round < 200; round++) {
        const writes: WriteOp[] = [];
        for (let count = 0; count < 3; count++) {
          const victim = all[Math.floor(random() * TOTAL)] as Entry;
          if (random() < 0.5) {
            writes.push(
              insert({ ...entry(2000 + created), createdAt: instant(Math.floor(random() * TOTAL)) }),
            );
            created++;
          } else if (untouched.delete(victim.id)) {
            writes.push({ op: 'delete', collection: ENTRIES, id: victim.id });
          }
        }
        const [page] = await Promise.all([
          store().page<Entry>(ENTRIES, A, { sort: NEWEST, limit: 8, cursor }),
          store().commit(A, writes),
        ]);
        seen.push(...page.items.map((doc) => doc.id));
        if (page.nextCursor === null) break;
        cursor = page.nextCursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      const expected = reference(all, (doc) => untouched.has(doc.id), NEWEST);
      expect(seen.filter((id) => untouched.has(id))).toEqual(expected);
    });

    it('finds by equality and ranges on the order field, also when a document holds an array there', async () => {
      const at = instant(100);
      const exact = await store().find<Entry>(ENTRIES, A, { createdAt: at }, { sort: NEWEST });
      expect(exact.map((doc) => doc.id)).toEqual(reference(all, (doc) => doc.createdAt === at, NEWEST));
      // An array in the order field matches a condition when any element does (MongoDB's rule).
      // The entry has no tags: arrays in two fields of the index [tags, createdAt] are refused.
      const odd = { ...entry(3001), createdAt: [instant(0), at] as unknown as string };
      expect(odd.tags).toBeUndefined();
      await store().commit(A, [insert(odd)]);
      const withArray = await store().find<Entry>(
        ENTRIES,
        A,
        { createdAt: { $gte: at, $lte: at } },
        { sort: NEWEST },
      );
      expect(withArray.map((doc) => doc.id).sort()).toEqual(
        [...reference(all, (doc) => doc.createdAt === at, NEWEST), odd.id].sort(),
      );
    });

    it('answers find and count through the same indexes, within the tenant', async () => {
      const won = reference(all, (doc) => doc.status === 'won', NEWEST);
      const found = await store().find<Entry>(ENTRIES, A, { status: 'won' }, { sort: NEWEST, limit: 5 });
      expect(found.map((doc) => doc.id)).toEqual(won.slice(0, 5));
      expect(await store().count(ENTRIES, A, { status: 'won' })).toBe(won.length);
      expect(await store().count(ENTRIES, B, { status: 'new' })).toBe(1);
      const owned = await store().find<Entry>(ENTRIES, A, { ownerId: 'u_2' });
      expect(owned.map((doc) => doc.id).sort()).toEqual(
        all
          .filter((doc) => doc.ownerId === 'u_2')
          .map((doc) => doc.id)
          .sort(),
      );
    });
  });
}
