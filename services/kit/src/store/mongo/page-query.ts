// Sorting and keyset pagination on MongoDB: the sort document, and the condition "strictly after
// this cursor position" that continues a page.
//
// The condition has to follow the order the *server* sorts in, or pages would skip or repeat.
// MongoDB sorts across types in BSON order (missing and null first, then numbers, strings,
// objects, arrays, booleans), the same order ../compare.ts gives the embedded store. But its
// comparison operators only compare within one type (`{$gt: 5}` never matches a string), so
// "after 5" is spelled as: a greater number, or the same number with a greater id, or any value of
// a type that sorts after numbers.
import type { mongo } from 'mongoose';
import type { CursorPosition } from '../cursor.ts';
import type { Filter, Sort } from '../port.ts';
import { PAGE_EXAMINE_LIMIT } from '../scan-budget.ts';
import type { MongoQuery } from './filter-query.ts';

/** BSON type aliases of JSON values, in MongoDB's cross-type sort order (null and missing first). */
const TYPE_ORDER = ['null', 'number', 'string', 'object', 'array', 'bool'] as const;
type TypeAlias = (typeof TYPE_ORDER)[number];

/** The sort document: the field, then id in the same direction (ids are unique, so the order is total). */
export function sortSpec(sort: Sort): mongo.Sort {
  const direction = sort.direction === 'asc' ? 1 : -1;
  return sort.field === 'id' ? { id: direction } : { [sort.field]: direction, id: direction };
}

/** Documents that come strictly after `position` in `sort` order. */
export function afterPosition(sort: Sort, position: CursorPosition): MongoQuery {
  const { field } = sort;
  const ascending = sort.direction === 'asc';
  const type = typeOf(position.value);
  const rank = TYPE_ORDER.indexOf(type);
  const later = ascending ? TYPE_ORDER.slice(rank + 1) : TYPE_ORDER.slice(0, rank);
  const beyond = ascending ? '$gt' : '$lt';

  const branches: MongoQuery[] = [];
  // Every value of a type that sorts beyond this one.
  if (later.includes('null')) branches.push({ [field]: null });
  const otherTypes = later.filter((alias) => alias !== 'null');
  if (otherTypes.length > 0) branches.push({ [field]: { $type: otherTypes } });
  // A value of the same type beyond this one (null and missing are all equal, so none is beyond).
  if (type !== 'null') branches.push({ [field]: { [beyond]: position.value } });
  // The same value, then the id decides. `{f: null}` also matches a missing field, as the sort does.
  branches.push({ $and: [{ [field]: position.value ?? null }, { id: { [beyond]: position.id } }] });
  return { $or: branches };
}

function typeOf(value: unknown): TypeAlias {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) {
    // MongoDB sorts a document by the smallest (or largest) element of an array, which no single
    // range condition can continue from; a page order must be a scalar or object field.
    throw new Error('pages cannot be sorted by an array field');
  }
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  return 'object';
}

/**
 * A filter split for a `$contains` page: `narrow` holds the conditions the server may use to choose
 * and order what it reads (no `$contains` anywhere in them); `tested` the rest, tested against each
 * document read. Undefined `tested` means the filter has no `$contains` at all.
 */
export function splitContains(filter: Filter | undefined): { narrow: Filter; tested: Filter | undefined } {
  const narrow: Filter = {};
  const tested: Filter = {};
  for (const [key, condition] of Object.entries(filter ?? {})) {
    if (condition === undefined) continue;
    const target = JSON.stringify(condition).includes('"$contains"') ? tested : narrow;
    (target as Record<string, unknown>)[key] = condition;
  }
  return { narrow, tested: Object.keys(tested).length > 0 ? tested : undefined };
}

/** What the `$contains` page pipeline answers: one document. */
export interface ContainsWindow {
  items: mongo.Document[];
  examined: { last: { id?: unknown; value?: unknown } }[];
  total: { n: number }[];
}

/**
 * The aggregation that reads a `$contains` page within the scan budget the embedded store has
 * (PAGE_EXAMINE_LIMIT): at most that many documents, in page order, are tested against `tested`.
 * One more is read only to learn whether the budget, rather than the collection, ran out.
 */
export function containsPagePipeline(
  window: MongoQuery,
  tested: MongoQuery,
  sort: Sort,
  limit: number,
): mongo.Document[] {
  const budget = { $limit: PAGE_EXAMINE_LIMIT };
  return [
    { $match: window },
    { $sort: sortSpec(sort) },
    { $limit: PAGE_EXAMINE_LIMIT + 1 },
    {
      $facet: {
        items: [budget, { $match: tested }, { $limit: limit + 1 }, { $project: { _id: 0 } }],
        examined: [
          budget,
          { $group: { _id: null, last: { $last: { id: '$id', value: `$${sort.field}` } } } },
        ],
        total: [{ $count: 'n' }],
      },
    },
  ];
}

/** Where the next page starts: after the page's last item, or after the last document examined. */
export function containsPageNext(
  read: ContainsWindow,
  limit: number,
  valueOf: (doc: mongo.Document) => unknown,
): { items: mongo.Document[]; next: CursorPosition | null } {
  const items = read.items.slice(0, limit);
  const last = items[items.length - 1];
  if (read.items.length > limit && last !== undefined) {
    return { items, next: { value: valueOf(last), id: last.id as string } };
  }
  const examined = read.examined[0]?.last;
  if ((read.total[0]?.n ?? 0) > PAGE_EXAMINE_LIMIT && examined !== undefined) {
    return { items, next: { value: examined.value, id: examined.id as string } };
  }
  return { items, next: null };
}
