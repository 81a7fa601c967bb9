// A mongoose schema per collection: the three fields every document has, typed, and the indexes
// its CollectionSpec asks for (indexes.ts). Everything else a document holds is the service's
// business, so the schema is not strict; reads and writes go through the driver collection, and the
// schema is where the collection's indexes are declared and kept in sync.
import { Schema, type Connection, type Model } from 'mongoose';
import type { CollectionSpec } from '../port.ts';
import { indexPlan } from './indexes.ts';

/** The store's own collections; a service collection may not take these names. */
export const OUTBOX_COLLECTION = 'fieldops.outbox';
export const COUNTERS_COLLECTION = 'fieldops.counters';
export const LEASES_COLLECTION = 'fieldops.leases';

/** Published outbox records are kept this long (for inspection), then MongoDB's TTL monitor drops them. */
export const PUBLISHED_RETENTION_SECONDS = 7 * 24 * 60 * 60;

const BASE_OPTIONS = {
  strict: false,
  // `version` is the store's own optimistic-concurrency field; mongoose's __v would be a second one.
  versionKey: false,
  // A document's `id` is a stored field, not mongoose's virtual alias of _id.
  id: false,
  // Indexes are built when define() runs (and awaited), never in the background on first use.
  autoIndex: false,
  autoCreate: false,
} as const;

export function documentSchema(spec: CollectionSpec): Schema {
  const schema = new Schema(
    {
      id: { type: String, required: true },
      tenantId: { type: String, required: true },
      version: { type: Number, required: true },
    },
    { ...BASE_OPTIONS, collection: spec.name },
  );
  for (const plan of indexPlan(spec)) schema.index(plan.key, plan.options);
  return schema;
}

/** `pending` is set until the relay marks the record published, so the relay reads a small index. */
export function outboxSchema(): Schema {
  const schema = new Schema(
    {
      seq: { type: Number, required: true },
      id: { type: String, required: true },
      tenantId: { type: String, required: true },
      topic: { type: String, required: true },
      key: { type: String, required: true },
      value: { type: Schema.Types.Mixed },
      // 2 (this version) or true (older versions): outbox.ts PENDING.
      pending: { type: Schema.Types.Mixed },
      publishedAt: { type: Date },
    },
    { ...BASE_OPTIONS, collection: OUTBOX_COLLECTION },
  );
  // seq counts per tenant (outbox.ts): a record is its tenant and its seq.
  schema.index({ tenantId: 1, seq: 1 }, { name: 'tenant_seq', unique: true });
  // The relay's turns: tenants with pending records, then each one's earliest (outbox.ts pending()).
  schema.index(
    // Its own key pattern: tenant_seq has (tenantId, seq) already, without the partial filter.
    { tenantId: 1, seq: 1, pending: 1 },
    { name: 'pending_tenant_seq', partialFilterExpression: { pending: { $exists: true } } },
  );
  // Only published records have publishedAt, so pending ones never expire.
  schema.index(
    { publishedAt: 1 },
    { name: 'published_ttl', expireAfterSeconds: PUBLISHED_RETENTION_SECONDS },
  );
  return schema;
}

/**
 * The model of `name` on this connection, built from the schema given now (define() may be called
 * again with other keys). Models are per connection, so two stores never share or clash.
 */
export function modelOf(connection: Connection, name: string, schema: Schema): Model<unknown> {
  if (connection.models[name] !== undefined) connection.deleteModel(name);
  return connection.model<unknown>(name, schema, name);
}

/** An index as the server lists it (`listIndexes`), reduced to what decides what it enforces. */
export interface IndexShape {
  name: string;
  key: Record<string, unknown>;
  unique?: boolean;
  partialFilterExpression?: unknown;
  expireAfterSeconds?: number;
}

/** What a collection's indexes lack or hold otherwise than declared. Nothing here is ever dropped. */
export interface IndexReport {
  collection: string;
  /** Declared and absent (created when the caller may create). */
  missing: string[];
  /** Declared, but the server holds an index of that name or key with another shape: left as it is. */
  differing: string[];
  created: string[];
}

/**
 * Compares the declared indexes with the listed ones, by name and by key. An index nobody declared
 * (an operator's, Atlas's, one a former spec asked for) is not reported and never dropped.
 */
export function compareIndexes(
  declared: IndexShape[],
  listed: IndexShape[],
): { missing: IndexShape[]; differing: string[]; strayUnique: string[] } {
  const missing: IndexShape[] = [];
  const differing: string[] = [];
  const matched = new Set<string>();
  for (const want of declared) {
    const sameName = listed.find((index) => index.name === want.name);
    const sameKey = listed.find((index) => sameIndexKeys(index.key, want.key));
    const found = sameName ?? sameKey;
    if (found !== undefined) matched.add(found.name);
    if (found === undefined) missing.push(want);
    else if (!sameIndexShape(found, want)) differing.push(want.name);
    else if (found.name !== want.name) differing.push(`${want.name} (held as ${found.name})`);
  }
  return { missing, differing, strayUnique: strayUniqueIndexes(listed, matched) };
}

/** The listed unique indexes (MongoDB's own `_id_` aside) that no declared index `matched`. */
export function strayUniqueIndexes(listed: IndexShape[], matched: ReadonlySet<string>): string[] {
  return listed
    .filter((index) => index.unique === true && index.name !== '_id_' && !matched.has(index.name))
    .map((index) => index.name);
}

/**
 * A collection holds unique indexes this version does not declare (a former version's key, such
 * as quantity_snapshots' unique_runId before snapshots were kept per run and region version).
 * Unlike any other undeclared index, one of these refuses writes this version makes, mid-request;
 * so a service refuses to start instead, and names the operator's command.
 */
export class StrayUniqueIndexes extends Error {
  constructor(collection: string, names: readonly string[]) {
    super(
      `MongoDB collection ${collection} holds the unique ${names.length === 1 ? 'index' : 'indexes'} ` +
        `${names.join(', ')}, which this version does not declare: it would refuse writes this version ` +
        `makes. Drop ${names.length === 1 ? 'it' : 'them'}: npm run store:migrate -- ` +
        names.map((name) => `--drop ${collection}.${name}`).join(' '),
    );
    this.name = 'StrayUniqueIndexes';
  }
}

/** Whether two index keys are the same fields in the same order and directions. */
export function sameIndexKeys(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return JSON.stringify(Object.entries(a)) === JSON.stringify(Object.entries(b));
}

/** Whether two indexes enforce the same thing (key, uniqueness, partial filter, TTL); names aside. */
export function sameIndexShape(a: IndexShape, b: IndexShape): boolean {
  return (
    sameIndexKeys(a.key, b.key) &&
    Boolean(a.unique) === Boolean(b.unique) &&
    JSON.stringify(a.partialFilterExpression ?? null) === JSON.stringify(b.partialFilterExpression ?? null) &&
    (a.expireAfterSeconds ?? null) === (b.expireAfterSeconds ?? null)
  );
}

/** The indexes a model's schema declares, as IndexShapes. */
export function declaredIndexes(model: Model<unknown>): IndexShape[] {
  return schemaIndexes(model.schema, model.collection.name);
}

/** The indexes a schema declares, as IndexShapes. */
export function schemaIndexes(schema: Schema, collection: string): IndexShape[] {
  return schema.indexes().map(([key, options]) => {
    const { name, unique, partialFilterExpression, expireAfterSeconds } = options as Partial<IndexShape>;
    if (typeof name !== 'string') throw new Error(`an index of ${collection} has no name`);
    return {
      name,
      key: key as Record<string, unknown>,
      ...(unique === undefined ? {} : { unique }),
      ...(partialFilterExpression === undefined ? {} : { partialFilterExpression }),
      ...(expireAfterSeconds === undefined ? {} : { expireAfterSeconds }),
    };
  });
}

/**
 * Creates the collection and the declared indexes it lacks. It never drops an index: one of a
 * declared name or key held with another shape is reported in `differing` and left as it is (an
 * operator rebuilds it), and an index nobody declared is left alone. Replicas starting together
 * create the same indexes; MongoDB treats an identical createIndexes as done.
 */
export async function syncCollection(model: Model<unknown>): Promise<IndexReport> {
  await model.createCollection().catch((error: unknown) => {
    // 48: NamespaceExists (another process, or an earlier start, created it first).
    if ((error as { code?: unknown }).code !== 48) throw error;
  });
  const collection = model.db.db?.collection(model.collection.name);
  if (collection === undefined) throw new Error('the MongoDB connection has no database');
  const listed = (await collection.indexes()) as IndexShape[];
  const { missing, differing, strayUnique } = compareIndexes(declaredIndexes(model), listed);
  if (strayUnique.length > 0) throw new StrayUniqueIndexes(model.collection.name, strayUnique);
  if (missing.length > 0) {
    await collection.createIndexes(
      missing.map(({ name, key, ...options }) => ({ name, key, ...options })) as never,
    );
  }
  const report: IndexReport = {
    collection: model.collection.name,
    missing: missing.map((index) => index.name),
    differing,
    created: missing.map((index) => index.name),
  };
  if (differing.length > 0) {
    console.warn(
      `MongoDB collection ${report.collection}: indexes ${differing.join(', ')} differ from the declared ` +
        'ones and were left as they are; nothing drops an index unless an operator does (docs/production-adapters.md)',
    );
  }
  return report;
}
