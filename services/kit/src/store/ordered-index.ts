// An ordered index of the embedded store, built from a CollectionSpec `indexes` entry such as
// ['status', 'createdAt']: every field but the last is an equality prefix, the last one the order.
// Per tenant and per combination of prefix values (a "bucket") it keeps the documents' (sort value,
// id) pairs sorted, so a page in that order, with those fields pinned, starts with a binary search
// and reads only what it returns: O(log n + page) instead of a scan of the tenant.
//
// Equality follows filter.ts (MongoDB): a missing field is in the null bucket, and an array field
// puts the document in the bucket of each scalar element (a multikey index). An array in the order
// field, or a dot path that crosses an array, cannot be keyed that simply; such a document marks
// the index unusable for its tenant (the store then scans, which is always correct).
import { compareValues, pathGetter } from './compare.ts';
import type { CursorPosition } from './cursor.ts';
import type { Doc, Scalar } from './port.ts';
import { SortedList } from './sorted-list.ts';

/** One index entry: the sort value and the id (the cursor position of the document). */
export type Entry = CursorPosition;

/** Ascending (value, id): the order of every bucket; a descending page walks it backwards. */
export function compareEntries(a: Entry, b: Entry): number {
  const byValue = compareValues(a.value, b.value);
  if (byValue !== 0) return byValue;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

interface TenantIndex {
  buckets: Map<string, SortedList<Entry>>;
  /** Documents this index cannot key (a dot path through an array); the index is unused while > 0. */
  unkeyable: number;
}

export class OrderedIndex {
  readonly prefix: string[];
  readonly sortField: string;
  private readonly readPrefix: ((doc: unknown) => unknown)[];
  private readonly readSort: (doc: unknown) => unknown;
  private readonly tenants = new Map<string, TenantIndex>();

  readonly fields: string[];
  constructor(fields: string[]) {
    this.fields = fields;
    this.prefix = fields.slice(0, -1);
    this.sortField = fields[fields.length - 1] as string;
    this.readPrefix = this.prefix.map(pathGetter);
    this.readSort = pathGetter(this.sortField);
  }

  add(doc: Doc): void {
    const index = this.tenantIndex(doc.tenantId);
    const keys = this.bucketKeys(doc);
    if (keys === null) {
      index.unkeyable++;
      return;
    }
    const entry: Entry = { value: this.readSort(doc) ?? null, id: doc.id };
    for (const key of keys) {
      let bucket = index.buckets.get(key);
      if (bucket === undefined) {
        bucket = new SortedList(compareEntries);
        index.buckets.set(key, bucket);
      }
      bucket.insert(entry);
    }
  }

  remove(doc: Doc): void {
    const index = this.tenants.get(doc.tenantId);
    if (index === undefined) return;
    const keys = this.bucketKeys(doc);
    if (keys === null) {
      index.unkeyable--;
      return;
    }
    const entry: Entry = { value: this.readSort(doc) ?? null, id: doc.id };
    for (const key of keys) {
      const bucket = index.buckets.get(key);
      if (bucket === undefined) continue;
      bucket.remove(entry);
      if (bucket.size === 0) index.buckets.delete(key);
    }
  }

  /** False while some document of the tenant cannot be keyed (see the top of this file). */
  usableFor(tenantId: string): boolean {
    return (this.tenants.get(tenantId)?.unkeyable ?? 0) === 0;
  }

  /** The bucket of one combination of prefix values (null when no document holds it). */
  bucket(tenantId: string, values: Scalar[]): SortedList<Entry> | null {
    return this.tenants.get(tenantId)?.buckets.get(JSON.stringify(values)) ?? null;
  }

  private tenantIndex(tenantId: string): TenantIndex {
    let index = this.tenants.get(tenantId);
    if (index === undefined) {
      index = { buckets: new Map(), unkeyable: 0 };
      this.tenants.set(tenantId, index);
    }
    return index;
  }

  /**
   * Every bucket the document belongs to, or null when it cannot be keyed: a prefix path crosses an
   * array, or the order field holds an array (a filter matches any element of it, which one
   * position in the order cannot stand for).
   */
  private bucketKeys(doc: Doc): string[] | null {
    if (Array.isArray(this.readSort(doc))) return null;
    if (this.sortField.includes('.') && crossesArray(doc, this.sortField)) return null;
    const values = this.readPrefix.map((read) => read(doc));
    // The common case, on every write: scalar (or missing) prefix values, one bucket.
    if (
      values.every((value) => !Array.isArray(value)) &&
      this.prefix.every((field) => !field.includes('.'))
    ) {
      const scalars = values.map(equalityKeys);
      return scalars.every((keys) => keys.length === 1)
        ? [JSON.stringify(scalars.map((keys) => keys[0]))]
        : [];
    }
    let combinations: Scalar[][] = [[]];
    for (let position = 0; position < this.prefix.length; position++) {
      const field = this.prefix[position] as string;
      if (field.includes('.') && crossesArray(doc, field)) return null;
      const scalars = equalityKeys(values[position]);
      combinations = combinations.flatMap((head) => scalars.map((scalar) => [...head, scalar]));
    }
    return [...new Set(combinations.map((combination) => JSON.stringify(combination)))];
  }
}

/** The scalars an equality filter on this value matches (filter.ts `equals`). */
function equalityKeys(value: unknown): Scalar[] {
  if (value === undefined || value === null) return [null];
  if (Array.isArray(value)) return (value as unknown[]).filter(isScalar);
  return isScalar(value) ? [value] : [];
}

function isScalar(value: unknown): value is Scalar {
  return (
    value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
  );
}

/** Whether a value on the way to the last step of a dot path is an array (filter.ts fans out there). */
function crossesArray(doc: Doc, path: string): boolean {
  const parts = path.split('.');
  let current: unknown = doc;
  for (let step = 0; step < parts.length - 1; step++) {
    if (current === null || typeof current !== 'object') return false;
    current = (current as Record<string, unknown>)[parts[step] as string];
    if (Array.isArray(current)) return true;
  }
  return false;
}
