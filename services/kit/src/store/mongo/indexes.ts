// The MongoDB indexes a collection needs, derived from its CollectionSpec. Every index starts
// with tenantId: uniqueness never crosses tenants, and every query is tenant-scoped.
import type { mongo } from 'mongoose';
import type { CollectionSpec } from '../port.ts';

export interface IndexPlan {
  key: Record<string, 1>;
  options: mongo.CreateIndexesOptions & { name: string };
}

/**
 * BSON types a key field may hold to be indexed: every type but null. A unique key skips a
 * document whose key field is missing or null (the port's sparse rule, which is how "one open lead
 * per email" works), and MongoDB's partial indexes cannot say `$ne: null`, only `$type`.
 */
export const INDEXED_TYPES = ['string', 'number', 'bool', 'object', 'array', 'date', 'objectId'];

/** The indexes of one collection, in creation order, without duplicates. */
export function indexPlan(spec: CollectionSpec): IndexPlan[] {
  const plans: IndexPlan[] = [
    // The document's identity: ids are unique within a tenant, and every get() is this lookup.
    { key: { tenantId: 1, id: 1 }, options: { name: 'tenant_id', unique: true } },
  ];
  for (const fields of spec.unique ?? []) {
    assertFields(spec.name, fields);
    const key = keyOf(['tenantId', ...fields]);
    if (plans.some((plan) => sameKey(plan.key, key))) continue;
    const partial = Object.fromEntries(fields.map((field) => [field, { $type: INDEXED_TYPES }]));
    plans.push({
      key,
      options: { name: `unique_${fields.join('_')}`, unique: true, partialFilterExpression: partial },
    });
  }
  for (const fields of spec.indexes ?? []) {
    assertFields(spec.name, fields);
    // id last, because pages sort by (field, id): the index then serves the whole keyset order.
    const key = keyOf(['tenantId', ...fields.filter((field) => field !== 'id'), 'id']);
    // A unique index on the same fields would collide by key pattern; keep the first.
    if (plans.some((plan) => sameKey(plan.key, key))) continue;
    plans.push({ key, options: { name: `order_${fields.join('_')}` } });
  }
  return plans;
}

function keyOf(fields: string[]): Record<string, 1> {
  return Object.fromEntries(fields.map((field) => [field, 1]));
}

function sameKey(a: Record<string, 1>, b: Record<string, 1>): boolean {
  return JSON.stringify(Object.keys(a)) === JSON.stringify(Object.keys(b));
}

function assertFields(collection: string, fields: string[]): void {
  const valid =
    Array.isArray(fields) &&
    fields.length > 0 &&
    fields.every((field) => typeof field === 'string' && field !== '' && !field.startsWith('$'));
  if (!valid) throw new Error(`collection ${collection}: an index is a non-empty list of field names`);
}

/**
 * Lets a lookup by a unique key use that key's index. MongoDB's planner only picks a partial index
 * when the query provably implies the index's filter, and it cannot prove `{email: 'a@x'}` implies
 * `{email: {$type: [...]}}`; so where a filter pins every field of a unique key to a non-null
 * scalar, the same `$type` guard is added to those fields. The guard changes no result: a non-null
 * scalar (or an array holding one) already has one of INDEXED_TYPES. Without it, every idempotency
 * or dedupe lookup would scan the tenant's whole collection.
 */
export function guardUniqueLookups(
  unique: string[][] | undefined,
  query: Record<string, unknown>,
): Record<string, unknown> {
  const pinned = (field: string): boolean => {
    const value = query[field];
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  };
  const key = (unique ?? []).find((fields) => fields.length > 0 && fields.every(pinned));
  if (key === undefined) return query;
  const guarded = { ...query };
  for (const field of key) guarded[field] = { $eq: query[field], $type: INDEXED_TYPES };
  return guarded;
}
