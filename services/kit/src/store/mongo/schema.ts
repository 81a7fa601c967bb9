// A mongoose schema per collection: the three fields every document has, typed, and the indexes
// its CollectionSpec asks for (indexes.ts). Everything else a document holds is the service's
// business, so the schema is not strict; reads and writes go through the driver collection, and the
// schema is where the collection's indexes are declared and kept in sync.
import { Schema, type Connection, type Model } from 'mongoose';
import type { CollectionSpec } from '../port.js';
import { indexPlan } from './indexes.js';

/** The store's own collections; a service collection may not take these names. */
export const OUTBOX_COLLECTION = 'fieldops.outbox';
export const COUNTERS_COLLECTION = 'fieldops.counters';

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
      pending: { type: Boolean },
      publishedAt: { type: Date },
    },
    { ...BASE_OPTIONS, collection: OUTBOX_COLLECTION },
  );
  schema.index({ seq: 1 }, { name: 'seq', unique: true });
  schema.index({ pending: 1, seq: 1 }, { name: 'pending_seq', partialFilterExpression: { pending: true } });
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

/** Creates the collection and makes its indexes exactly the declared ones (dropping any left over). */
export async function syncCollection(model: Model<unknown>): Promise<void> {
  await model.createCollection().catch((error: unknown) => {
    // 48: NamespaceExists (another process, or an earlier start, created it first).
    if ((error as { code?: unknown }).code !== 48) throw error;
  });
  await model.syncIndexes();
}
