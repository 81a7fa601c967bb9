// The index migration: what `npm run store:migrate` (and the chart's pre-install/pre-upgrade Job)
// does to each service's database. It creates the declared indexes that are missing, reports the
// ones held with another shape, and drops an index only when the operator names it
// (`--drop <collection>.<index>`). Services at start only check (checkIndexes); nothing else ever
// drops an index. planIndexes is pure, so its decisions are unit-tested without a server.
import type { Connection, Model, mongo } from 'mongoose';
import type { CollectionSpec } from '../port.ts';
import { indexPlan } from './indexes.ts';
import {
  compareIndexes,
  COUNTERS_COLLECTION,
  declaredIndexes,
  OUTBOX_COLLECTION,
  outboxSchema,
  sameIndexKeys,
  sameIndexShape,
  schemaIndexes,
  StrayUniqueIndexes,
  strayUniqueIndexes,
  type IndexShape,
} from './schema.ts';

/** The store's own collections, whose names hold a dot. */
const STORE_COLLECTIONS = [OUTBOX_COLLECTION, COUNTERS_COLLECTION];

/** The index every collection has; no flag drops it. */
const ID_INDEX = '_id_';

/** What the migration does to one collection's indexes, decided before anything is done. */
export interface CollectionPlan {
  collection: string;
  /** Declared and absent: created. */
  create: IndexShape[];
  /** Declared, and held with that shape: nothing to do. */
  unchanged: string[];
  /** Declared, but held (by name or by key) with another shape and not named by a drop: left, reported. */
  differing: { declared: string; held: string }[];
  /** Named by a drop: dropped, then the declared index it stood in the way of (if any) is created. */
  drop: { index: string; rebuild?: IndexShape }[];
  /** Held, not declared, not named by a drop: left alone (an operator's, Atlas's, a former spec's). */
  undeclared: string[];
  /** Those of the undeclared that are unique: services refuse to start while one is held. */
  strayUnique: string[];
}

/** The declared index shapes of a service collection (those MongoStore.define would build). */
export function specIndexes(spec: CollectionSpec): IndexShape[] {
  return indexPlan(spec).map(({ key, options }) => {
    const { name, unique, partialFilterExpression, expireAfterSeconds } = options;
    return {
      name,
      key,
      ...(unique === undefined ? {} : { unique }),
      ...(partialFilterExpression === undefined ? {} : { partialFilterExpression }),
      ...(expireAfterSeconds === undefined ? {} : { expireAfterSeconds }),
    };
  });
}

/** The store's own collections in every service database, with their declared indexes. */
export function storeCollections(): { name: string; indexes: IndexShape[] }[] {
  return [
    { name: OUTBOX_COLLECTION, indexes: schemaIndexes(outboxSchema(), OUTBOX_COLLECTION) },
    { name: COUNTERS_COLLECTION, indexes: [] },
  ];
}

/**
 * Decides what to do with one collection. `drops` are the index names the operator named for this
 * collection; `_id_` is never dropped, and a name the collection does not hold is an error (a typo
 * must not pass silently).
 */
export function planIndexes(
  collection: string,
  declared: IndexShape[],
  listed: IndexShape[],
  drops: readonly string[] = [],
): CollectionPlan {
  if (drops.includes(ID_INDEX))
    throw new Error(`${collection}.${ID_INDEX} is MongoDB's own index: it is never dropped`);
  const unknown = drops.filter((name) => !listed.some((index) => index.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `--drop names ${unknown.map((name) => `${collection}.${name}`).join(', ')}, which the collection does not hold`,
    );
  }
  const plan: CollectionPlan = {
    collection,
    create: [],
    unchanged: [],
    differing: [],
    drop: [],
    undeclared: [],
    strayUnique: [],
  };
  const matched = new Set<string>();
  for (const want of declared) {
    const held =
      listed.find((index) => index.name === want.name) ??
      listed.find((index) => sameIndexKeys(index.key, want.key));
    if (held === undefined) {
      plan.create.push(want);
      continue;
    }
    matched.add(held.name);
    if (held.name === want.name && sameIndexShape(held, want)) plan.unchanged.push(want.name);
    else if (drops.includes(held.name)) plan.drop.push({ index: held.name, rebuild: want });
    else plan.differing.push({ declared: want.name, held: held.name });
  }
  for (const index of listed) {
    if (index.name === ID_INDEX || matched.has(index.name)) continue;
    if (drops.includes(index.name)) plan.drop.push({ index: index.name });
    else plan.undeclared.push(index.name);
  }
  plan.strayUnique = strayUniqueIndexes(listed, matched).filter((name) => !drops.includes(name));
  return plan;
}

/**
 * `collection.index` arguments grouped by collection. Index names may hold dots; collection names
 * do not, except the store's own (`fieldops.outbox`, `fieldops.counters`), recognised by name.
 */
export function parseDrops(args: readonly string[]): Map<string, string[]> {
  const drops = new Map<string, string[]>();
  for (const arg of args) {
    const own = STORE_COLLECTIONS.find((name) => arg.startsWith(`${name}.`));
    const dot = own === undefined ? arg.indexOf('.') : own.length;
    if (dot <= 0 || dot === arg.length - 1) {
      throw new Error(`--drop ${arg}: name an index as <collection>.<index>`);
    }
    const collection = arg.slice(0, dot);
    drops.set(collection, [...(drops.get(collection) ?? []), arg.slice(dot + 1)]);
  }
  return drops;
}

/** The indexes a collection holds; none when it does not exist yet. */
export async function listedIndexes(db: mongo.Db, collection: string): Promise<IndexShape[]> {
  try {
    return (await db.collection(collection).indexes()) as IndexShape[];
  } catch (error) {
    // 26: NamespaceNotFound (the collection does not exist yet).
    if ((error as { code?: unknown }).code === 26) return [];
    throw error;
  }
}

function createOptions(index: IndexShape): mongo.IndexDescription {
  const { name, key, ...options } = index;
  return { name, key, ...options } as mongo.IndexDescription;
}

/** A collection of a database and the indexes declared for it. */
export interface DeclaredCollection {
  name: string;
  indexes: IndexShape[];
}

/**
 * Reads one database and plans each collection (nothing is changed). `drops` may name indexes of
 * collections this database does not hold; only those it holds are planned, and `used` collects
 * them as `collection.index`, so the caller can refuse a --drop that named nothing anywhere.
 */
export async function planDatabase(
  connection: Connection,
  collections: readonly DeclaredCollection[],
  drops: ReadonlyMap<string, readonly string[]> = new Map(),
  used: Set<string> = new Set(),
): Promise<CollectionPlan[]> {
  const db = databaseOf(connection);
  const plans: CollectionPlan[] = [];
  for (const { name, indexes } of collections) {
    const listed = await listedIndexes(db, name);
    const held = (drops.get(name) ?? []).filter((index) => listed.some((found) => found.name === index));
    for (const index of held) used.add(`${name}.${index}`);
    plans.push(planIndexes(name, indexes, listed, held));
  }
  return plans;
}

/**
 * Applies plans to one database: creates each collection when absent, then its missing indexes,
 * then each named drop followed by the rebuild of the declared index it held the place of.
 */
export async function applyPlans(connection: Connection, plans: readonly CollectionPlan[]): Promise<void> {
  const db = databaseOf(connection);
  for (const plan of plans) {
    await db.createCollection(plan.collection).catch((error: unknown) => {
      // 48: NamespaceExists.
      if ((error as { code?: unknown }).code !== 48) throw error;
    });
    const target = db.collection(plan.collection);
    if (plan.create.length > 0) await target.createIndexes(plan.create.map(createOptions));
    for (const { index, rebuild } of plan.drop) {
      await target.dropIndex(index);
      if (rebuild !== undefined) await target.createIndexes([createOptions(rebuild)]);
    }
  }
}

/** What a plan says, one line per thing done or left, for the command's report. */
export function describePlan(plan: CollectionPlan, applied: boolean): string[] {
  const will = (done: string, todo: string): string => (applied ? done : todo);
  const name = plan.collection;
  return [
    ...plan.create.map((index) => `${name}.${index.name}: ${will('created', 'would be created')}`),
    ...plan.drop.map(({ index, rebuild }) =>
      rebuild === undefined
        ? `${name}.${index}: ${will('dropped', 'would be dropped')} (--drop)`
        : `${name}.${index}: ${will('dropped and rebuilt as declared', 'would be dropped and rebuilt as declared')} (--drop)`,
    ),
    ...plan.differing.map(
      ({ declared, held }) =>
        `${name}.${declared}: held as ${held} with another shape, left as it is ` +
        `(to rebuild it: --drop ${name}.${held})`,
    ),
    ...plan.strayUnique.map(
      (index) =>
        `${name}.${index}: unique and not declared by this version; services refuse to start while ` +
        `it is held (to drop it: --drop ${name}.${index})`,
    ),
  ];
}

function databaseOf(connection: Connection): mongo.Db {
  const db = connection.db;
  if (db === undefined) throw new Error('the MongoDB connection has no database');
  return db;
}

/** A service started on a database its migration has not prepared. */
export class MissingIndexes extends Error {
  readonly database: string;
  readonly missing: string[];
  constructor(database: string, missing: string[]) {
    super(
      `MongoDB database ${database} lacks the indexes ${missing.join(', ')}. Services only check their ` +
        'indexes at start; the migration creates them: run `npm run store:migrate` with the same ' +
        'MONGODB_URI (in the chart, the pre-install/pre-upgrade Job runs it: docs/deploy.md, "Upgrading").',
    );
    this.database = database;
    this.missing = missing;
    this.name = 'MissingIndexes';
  }
}

/**
 * How a store treats its indexes when a collection is defined: `check` (services in production)
 * lists them and refuses to start without the declared ones; `create` (the adapter tests, which
 * define collections of their own) creates the missing ones as the migration would.
 */
export type IndexMode = 'check' | 'create';

/**
 * The start-time check: the declared indexes of a model's collection that the server lacks, named
 * `collection.index`. A differing one is logged and left alone, as the migration would.
 */
export async function checkCollection(model: Model<unknown>): Promise<string[]> {
  const db = model.db.db;
  if (db === undefined) throw new Error('the MongoDB connection has no database');
  const name = model.collection.name;
  const { missing, differing, strayUnique } = compareIndexes(
    declaredIndexes(model),
    await listedIndexes(db, name),
  );
  if (strayUnique.length > 0) throw new StrayUniqueIndexes(name, strayUnique);
  if (differing.length > 0) {
    console.warn(
      `MongoDB collection ${name}: indexes ${differing.join(', ')} differ from the declared ones and were ` +
        'left as they are; `npm run store:migrate -- --drop <collection>.<index>` rebuilds one (docs/deploy.md)',
    );
  }
  return missing.map((index) => `${name}.${index.name}`);
}
