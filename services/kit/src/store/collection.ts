// One collection's documents, per tenant, with its sparse unique indexes and its ordered indexes
// (ordered-index.ts, one per CollectionSpec `indexes` entry). This is the in-memory
// model only: it never validates versions or writes to disk (the store does), so replaying the
// journal and applying a live commit share the same put/remove.
import { pathGetter } from './compare.ts';
import { OrderedIndex } from './ordered-index.ts';
import type { CollectionSpec, Doc } from './port.ts';

class UniqueIndex {
  private readonly owners = new Map<string, string>();
  private readonly getters: ((doc: unknown) => unknown)[];

  readonly fields: string[];
  constructor(fields: string[]) {
    this.fields = fields;
    this.getters = fields.map(pathGetter);
  }

  /** The index key of a document, or null when any key field is missing or null (sparse). */
  keyOf(doc: Doc): string | null {
    const values: unknown[] = [];
    for (const get of this.getters) {
      const value = get(doc);
      if (value === undefined || value === null) return null;
      values.push(value);
    }
    // The tenant is part of the key: uniqueness never crosses tenants.
    return `${doc.tenantId}\u0000${JSON.stringify(values)}`;
  }

  /**
   * The index key an equality filter names, or null when the filter does not pin every field of
   * the index to a scalar (an operator, an array or a missing field could match more than one).
   */
  keyOfFilter(tenantId: string, filter: Record<string, unknown>): string | null {
    const values: unknown[] = [];
    for (const field of this.fields) {
      const value = filter[field];
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return null;
      values.push(value);
    }
    return `${tenantId}\u0000${JSON.stringify(values)}`;
  }

  ownerOf(key: string): string | undefined {
    return this.owners.get(key);
  }

  add(doc: Doc): void {
    const key = this.keyOf(doc);
    if (key !== null) this.owners.set(key, doc.id);
  }

  remove(doc: Doc): void {
    const key = this.keyOf(doc);
    if (key !== null && this.owners.get(key) === doc.id) this.owners.delete(key);
  }
}

export class Collection {
  private spec: CollectionSpec | undefined;
  private readonly tenants = new Map<string, Map<string, Doc>>();
  private uniques: UniqueIndex[] = [];
  private ordered: OrderedIndex[] = [];

  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }

  get defined(): boolean {
    return this.spec !== undefined;
  }

  /** The spec define() was given; throws before that. */
  get declared(): CollectionSpec {
    if (this.spec === undefined)
      throw new Error(`collection ${this.name} is not defined; call define() first`);
    return this.spec;
  }

  /**
   * Declares the unique keys and indexes what is already stored (documents replayed from disk
   * before the service called define). Existing duplicates make the key impossible to enforce,
   * so that is refused rather than ignored.
   */
  define(spec: CollectionSpec): void {
    const uniques = (spec.unique ?? []).map((fields) => new UniqueIndex(fields));
    for (const index of uniques) {
      for (const doc of this.allDocs()) {
        const key = index.keyOf(doc);
        const owner = key === null ? undefined : index.ownerOf(key);
        if (owner !== undefined) {
          throw new Error(
            `collection ${this.name}: cannot enforce unique key (${index.fields.join(', ')}): ` +
              `documents ${owner} and ${doc.id} of tenant ${doc.tenantId} share it`,
          );
        }
        index.add(doc);
      }
    }
    const ordered = orderedIndexes(spec);
    for (const doc of this.allDocs()) for (const index of ordered) index.add(doc);
    this.spec = spec;
    this.uniques = uniques;
    this.ordered = ordered;
  }

  /** The ordered indexes reads may walk (query-plan.ts chooses one). */
  get orderedIndexes(): readonly OrderedIndex[] {
    return this.ordered;
  }

  get(tenantId: string, id: string): Doc | undefined {
    return this.tenants.get(tenantId)?.get(id);
  }

  /**
   * Answers an equality lookup on a unique key from the index instead of a scan: the only document
   * that can match (null when none holds the key), or undefined when no index covers the filter.
   * The caller still checks the candidate against the whole filter. Unique keys are scalar fields,
   * so an index miss is a real miss.
   */
  uniqueCandidate(tenantId: string, filter: Record<string, unknown>): Doc | null | undefined {
    for (const index of this.uniques) {
      const key = index.keyOfFilter(tenantId, filter);
      if (key === null) continue;
      const owner = index.ownerOf(key);
      return owner === undefined ? null : (this.get(tenantId, owner) ?? null);
    }
    return undefined;
  }

  /** A tenant's documents in insertion order (a replaced document keeps its place in MongoDB too, roughly). */
  docs(tenantId: string): Iterable<Doc> {
    return this.tenants.get(tenantId)?.values() ?? [];
  }

  *allDocs(): Generator<Doc> {
    for (const docs of this.tenants.values()) yield* docs.values();
  }

  /** Describes the unique key another document of the tenant already holds, or returns null. */
  uniqueConflict(doc: Doc): string | null {
    for (const index of this.uniques) {
      const key = index.keyOf(doc);
      const owner = key === null ? undefined : index.ownerOf(key);
      if (owner !== undefined && owner !== doc.id) {
        return `key (${index.fields.join(', ')}) is taken by ${owner}`;
      }
    }
    return null;
  }

  put(doc: Doc): void {
    let docs = this.tenants.get(doc.tenantId);
    if (docs === undefined) {
      docs = new Map();
      this.tenants.set(doc.tenantId, docs);
    }
    const previous = docs.get(doc.id);
    if (previous !== undefined) this.unindex(previous);
    docs.set(doc.id, doc);
    for (const index of this.uniques) index.add(doc);
    for (const index of this.ordered) index.add(doc);
  }

  remove(tenantId: string, id: string): Doc | undefined {
    const docs = this.tenants.get(tenantId);
    const doc = docs?.get(id);
    if (docs === undefined || doc === undefined) return undefined;
    docs.delete(id);
    this.unindex(doc);
    return doc;
  }

  private unindex(doc: Doc): void {
    for (const index of this.uniques) index.remove(doc);
    for (const index of this.ordered) index.remove(doc);
  }
}

/** One ordered index per declared field list, plus one on id (every collection can be paged by id). */
function orderedIndexes(spec: CollectionSpec): OrderedIndex[] {
  const seen = new Set<string>();
  const indexes: OrderedIndex[] = [];
  for (const fields of [...(spec.indexes ?? []), ['id']]) {
    const key = JSON.stringify(fields);
    if (fields.length === 0 || seen.has(key)) continue;
    seen.add(key);
    indexes.push(new OrderedIndex(fields));
  }
  return indexes;
}
