// Chooses an ordered index for a read of the embedded store and walks it: the index whose prefix
// fields the filter pins by equality (a scalar, `$eq` or a short `$in`) and whose last field is the
// sort field. The walk starts strictly after the cursor (and at a range bound on the sort field),
// stops past the other bound, and merges the buckets of an `$in`. It yields candidates only: the
// caller still tests each document against the whole filter, so a plan can never change a result,
// only how much is read to find it.
import { compareValues } from './compare.ts';
import { compareEntries, type Entry, type OrderedIndex } from './ordered-index.ts';
import type { Condition, Filter, Scalar, Sort } from './port.ts';
import type { Position, SortedList } from './sorted-list.ts';

/** An `$in` with more values than this is not worth a merge of that many buckets (a tenant scan is). */
const MAX_BUCKETS = 64;

export interface Plan {
  index: OrderedIndex;
  buckets: SortedList<Entry>[];
}

/**
 * The most selective usable index (most pinned prefix fields), or null when none serves the read.
 * Without a sort, an index helps only when it pins something.
 */
export function choosePlan(
  indexes: readonly OrderedIndex[],
  tenantId: string,
  filter: Filter | undefined,
  sort: Sort | undefined,
): Plan | null {
  let best: { index: OrderedIndex; pinned: Scalar[][] } | null = null;
  for (const index of indexes) {
    if (sort !== undefined && sort.field !== index.sortField) continue;
    if (sort === undefined && index.prefix.length === 0) continue;
    if (!index.usableFor(tenantId)) continue;
    const pinned = pinnedValues(index.prefix, filter);
    if (pinned === null) continue;
    if (best === null || rank(index, filter) > rank(best.index, filter)) best = { index, pinned };
  }
  if (best === null) return null;
  const buckets: SortedList<Entry>[] = [];
  for (const values of combinations(best.pinned)) {
    const bucket = best.index.bucket(tenantId, values);
    if (bucket !== null) buckets.push(bucket);
  }
  return { index: best.index, buckets };
}

/** More pinned fields first; then an index whose order field the filter bounds (a range it can seek). */
function rank(index: OrderedIndex, filter: Filter | undefined): number {
  const range = rangeOf(filter?.[index.sortField]);
  const bounded = range.aboveLower.length + range.belowUpper.length > 0 ? 1 : 0;
  return index.prefix.length * 2 + bounded;
}

/**
 * The number of matches when the filter is exactly one bucket (every condition pins a prefix field
 * to one scalar): the bucket's size, without reading it. Null otherwise.
 */
export function bucketCount(plan: Plan, filter: Filter | undefined): number | null {
  const keys = Object.keys(filter ?? {}).filter((key) => filter?.[key] !== undefined);
  const exact =
    keys.length === plan.index.prefix.length &&
    keys.every((key) => plan.index.prefix.includes(key) && isPlainEquality(filter?.[key]));
  if (!exact) return null;
  return plan.buckets.reduce((sum, bucket) => sum + bucket.size, 0);
}

/** Index entries in `sort` order, strictly after `after`, within the filter's range on the sort field. */
export function walk(
  plan: Plan,
  filter: Filter | undefined,
  sort: Sort | undefined,
  after?: Entry,
): Iterable<Entry> {
  const range = rangeOf(filter?.[plan.index.sortField]);
  const descending = sort?.direction === 'desc';
  const walks = plan.buckets.map((bucket) =>
    descending ? walkDown(bucket, range, after) : walkUp(bucket, range, after),
  );
  if (walks.length === 1) return walks[0] as Iterable<Entry>;
  return merge(walks, descending ? (a, b) => compareEntries(b, a) : compareEntries);
}

/** Bounds of a range condition on the sort field; each test is true for values inside that bound. */
interface Range {
  aboveLower: ((value: unknown) => boolean)[];
  belowUpper: ((value: unknown) => boolean)[];
}

function rangeOf(condition: Filter[string]): Range {
  const range: Range = { aboveLower: [], belowUpper: [] };
  const bound = (operand: unknown): operand is string | number =>
    typeof operand === 'string' || typeof operand === 'number';
  // Equality on the order field is the range [value, value] (a number or string matches only itself).
  const equal = bound(condition) ? condition : undefined;
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition)) {
    if (equal !== undefined) {
      range.aboveLower.push((value) => compareValues(value, equal) >= 0);
      range.belowUpper.push((value) => compareValues(value, equal) <= 0);
    }
    return range;
  }
  const bounds = condition as Exclude<Condition, Scalar>;
  const { $gt, $gte, $lt, $lte } = bounds;
  if (bound($gt)) range.aboveLower.push((value) => compareValues(value, $gt) > 0);
  if (bound($gte)) range.aboveLower.push((value) => compareValues(value, $gte) >= 0);
  if (bound($lt)) range.belowUpper.push((value) => compareValues(value, $lt) < 0);
  if (bound($lte)) range.belowUpper.push((value) => compareValues(value, $lte) <= 0);
  return range;
}

function* walkUp(bucket: SortedList<Entry>, range: Range, after?: Entry): Generator<Entry> {
  const start: Position = bucket.lowerBound(
    (entry) =>
      (after === undefined || compareEntries(entry, after) > 0) &&
      range.aboveLower.every((test) => test(entry.value)),
  );
  for (const entry of bucket.forward(start)) {
    if (!range.belowUpper.every((test) => test(entry.value))) return;
    yield entry;
  }
}

function* walkDown(bucket: SortedList<Entry>, range: Range, after?: Entry): Generator<Entry> {
  // The first entry a descending walk may not return: at or past the cursor, or above the range.
  const end: Position = bucket.lowerBound(
    (entry) =>
      (after !== undefined && compareEntries(entry, after) >= 0) ||
      !range.belowUpper.every((test) => test(entry.value)),
  );
  for (const entry of bucket.backward(end)) {
    if (!range.aboveLower.every((test) => test(entry.value))) return;
    yield entry;
  }
}

/** Merges sorted walks; a document in two buckets (an array field) comes out once. */
function* merge(walks: Iterable<Entry>[], order: (a: Entry, b: Entry) => number): Generator<Entry> {
  const iterators = walks.map((entries) => entries[Symbol.iterator]());
  const heads = iterators.map((iterator) => iterator.next());
  let previous: Entry | undefined;
  for (;;) {
    let best = -1;
    for (let position = 0; position < heads.length; position++) {
      const head = heads[position] as IteratorResult<Entry>;
      if (head.done === true) continue;
      const current = heads[best];
      if (best < 0 || (current !== undefined && order(head.value, current.value as Entry) < 0))
        best = position;
    }
    if (best < 0) return;
    const entry = (heads[best] as IteratorResult<Entry>).value as Entry;
    heads[best] = (iterators[best] as Iterator<Entry>).next();
    if (previous !== undefined && compareEntries(previous, entry) === 0) continue;
    previous = entry;
    yield entry;
  }
}

/** The values the filter pins each prefix field to, or null when one is not pinned by equality. */
function pinnedValues(prefix: string[], filter: Filter | undefined): Scalar[][] | null {
  const pinned: Scalar[][] = [];
  let buckets = 1;
  for (const field of prefix) {
    const values = equalityValues(filter?.[field]);
    if (values === null) return null;
    buckets *= values.length;
    if (buckets > MAX_BUCKETS) return null;
    pinned.push(values);
  }
  return pinned;
}

function equalityValues(condition: Filter[string]): Scalar[] | null {
  if (isScalar(condition)) return [condition];
  if (condition === undefined || typeof condition !== 'object' || Array.isArray(condition)) return null;
  const operators = condition as Exclude<Condition, Scalar>;
  if (isScalar(operators.$eq)) return [operators.$eq];
  if (Array.isArray(operators.$in) && operators.$in.every(isScalar)) return [...new Set(operators.$in)];
  return null;
}

/** A scalar, or `{$eq: scalar}` and nothing else. */
function isPlainEquality(condition: Filter[string]): boolean {
  if (isScalar(condition)) return true;
  if (condition === undefined || typeof condition !== 'object' || Array.isArray(condition)) return false;
  const keys = Object.keys(condition).filter(
    (key) => (condition as Record<string, unknown>)[key] !== undefined,
  );
  return keys.length === 1 && keys[0] === '$eq' && isScalar((condition as { $eq?: unknown }).$eq);
}

function combinations(pinned: Scalar[][]): Scalar[][] {
  let result: Scalar[][] = [[]];
  for (const values of pinned) result = result.flatMap((head) => values.map((value) => [...head, value]));
  return result;
}

function isScalar(value: unknown): value is Scalar {
  return (
    value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
  );
}
