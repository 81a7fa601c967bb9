// The embedded store's read path: finds, counts and keyset pages over one tenant's documents of a
// collection, walked from an ordered index when query-plan.ts finds one, else scanned; and the
// copies reads hand out. Query semantics match the MongoDB adapter (see filter.ts).
import type { Collection } from './collection.ts';
import { compareValues, pathGetter } from './compare.ts';
import { decodeCursor, encodeCursor, type CursorPosition } from './cursor.ts';
import { checkSort, compileFilter, type Predicate } from './filter.ts';
import type { Entry } from './ordered-index.ts';
import type { Doc, Filter, Page, PageQuery, Sort } from './port.ts';
import { bucketCount, choosePlan, walk, type Plan } from './query-plan.ts';
import { PAGE_EXAMINE_LIMIT } from './scan-budget.ts';
import { TopK } from './topk.ts';

/** A page of stored documents themselves: callers copy or only read them. */
export function readPage(stored: Collection, tenantId: string, query: PageQuery): Page<Doc> {
  if (!Number.isInteger(query.limit) || query.limit < 1) {
    throw new Error('page limit must be a positive integer');
  }
  checkSort(query.sort);
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
      : readIndexed(stored, tenantId, walk(plan, query.filter, query.sort, after), matches, query.limit + 1);
  const items = read.selected.slice(0, query.limit);
  const last = items[items.length - 1];
  const next = read.selected.length > query.limit && last !== undefined ? last : read.stoppedAt;
  return {
    items: items.map((entry) => entry.doc),
    nextCursor: next === null ? null : encodeCursor(query.sort, next),
  };
}

/** The matching stored documents, in `sort` order when given, at most `limit` of them. */
export function select(
  stored: Collection,
  tenantId: string,
  filter: Filter,
  sort: Sort | undefined,
  limit: number | undefined,
): Doc[] {
  checkSort(sort);
  const matches = compileFilter(filter);
  const plan = choosePlan(stored.orderedIndexes, tenantId, filter, sort);
  if (sort !== undefined && plan === null) {
    return selectSorted(stored.docs(tenantId), matches, sort, limit ?? Infinity).map((entry) => entry.doc);
  }
  return take(candidates(stored, tenantId, filter, sort, matches, plan), limit ?? Infinity);
}

/** How many of the tenant's documents match: from the index's buckets when it can tell. */
export function countMatching(stored: Collection, tenantId: string, filter: Filter): number {
  const plan = choosePlan(stored.orderedIndexes, tenantId, filter, undefined);
  const counted = plan === null ? null : bucketCount(plan, filter);
  if (counted !== null) return counted;
  let total = 0;
  for (const _doc of candidates(stored, tenantId, filter, undefined, compileFilter(filter), plan)) total++;
  return total;
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
 * Reads hand out copies so a caller mutating a result never changes stored state. Stored values
 * are plain JSON (normalised), so a walk over objects and arrays copies them exactly, several times
 * faster than structuredClone (which handles every type and cycles): a page of 50 leads copies in
 * tens of microseconds instead of hundreds.
 */
export function copy<T>(value: unknown): T {
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
