// Connecting a service's store to MongoDB: one database per service (as the embedded store has one
// folder per service), a clear refusal when the server is not a replica set (the outbox is written
// in the same transaction as the change, and transactions need one), and connection strings kept
// out of every message because they may carry a password.
import mongoose, { type Connection, type mongo } from 'mongoose';
import { DEFAULT_MONGO_BOUNDS, type MongoBounds } from '../../config.ts';

export interface MongoConnectOptions {
  /** A mongodb:// or mongodb+srv:// connection string (MONGODB_URI). */
  uri: string;
  /** The database this store owns; see serviceDatabaseName. */
  dbName: string;
  /** How long to look for a usable server before giving up. Default 10 s. */
  serverSelectionTimeoutMS?: number;
  /** Timeouts and pool limits (FIELDOPS_MONGODB_*); default DEFAULT_MONGO_BOUNDS. */
  bounds?: MongoBounds;
}

/**
 * The socket waits this much longer than an operation's own server-side limit: a server that stops
 * answering (a partition without a reset) frees the connection instead of holding it forever.
 */
const SOCKET_MARGIN_MS = 10_000;

const DEFAULT_SELECTION_TIMEOUT_MS = 10_000;
const DEFAULT_DATABASE = 'fieldops';

/**
 * `<database of the URI, or fieldops>_<service>`: every service owns its own database, and several
 * platforms can share a cluster by naming different databases in their URIs.
 */
export function serviceDatabaseName(uri: string, service: string): string {
  const path = /^mongodb(?:\+srv)?:\/\/[^/]*\/([^?]*)/.exec(uri)?.[1] ?? '';
  const base = decodeURIComponent(path) || DEFAULT_DATABASE;
  const name = `${base}_${service}`;
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(name)) {
    throw new Error(`"${name}" is not a usable MongoDB database name: use letters, digits, _ and -`);
  }
  return name;
}

/** The connection string with any user and password replaced, for messages and logs. */
export function redactUri(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/)[^@/]*@/, '$1***@');
}

/**
 * The driver options of a store's client. Reads go to the primary whatever the URI says: a
 * `readPreference=secondaryPreferred` there would send idempotency lookups and the relay's outbox
 * reads to a secondary that may lag, so a replayed key would miss its record and a published event
 * could be published again. The driver lets this options object override the string's options.
 */
export function mongoClientOptions(options: MongoConnectOptions): mongo.MongoClientOptions {
  // A timeout given in the connection string wins over the default (the driver's options object
  // would otherwise override the string).
  const inUri = /[?&]serverSelectionTimeoutMS=/i.test(options.uri);
  const selectionTimeout =
    options.serverSelectionTimeoutMS ?? (inUri ? undefined : DEFAULT_SELECTION_TIMEOUT_MS);
  const bounds = options.bounds ?? DEFAULT_MONGO_BOUNDS;
  return {
    ...(selectionTimeout === undefined ? {} : { serverSelectionTimeoutMS: selectionTimeout }),
    readPreference: 'primary',
    // The installed driver (7.x) ignores `timeoutMS` (deprecated, "has no effect"), so the bounds
    // are the pool's, the socket's, and each operation's maxTimeMS (mongo-store.ts).
    maxPoolSize: bounds.maxPoolSize,
    waitQueueTimeoutMS: bounds.waitQueueTimeoutMs,
    socketTimeoutMS: bounds.operationTimeoutMs + SOCKET_MARGIN_MS,
  };
}

export async function connectMongo(options: MongoConnectOptions): Promise<Connection> {
  const connection = mongoose.createConnection(options.uri, {
    ...mongoClientOptions(options),
    dbName: options.dbName,
    // Fail at once when the server is gone instead of queueing operations in memory.
    bufferCommands: false,
    autoIndex: false,
    autoCreate: false,
  });
  try {
    await connection.asPromise();
    await assertReplicaSet(connection, options.uri);
    return connection;
  } catch (error) {
    await connection.close(true).catch(() => undefined);
    if (error instanceof NotAReplicaSet) throw error;
    const reason = (error instanceof Error ? error.message : String(error)).replaceAll(
      options.uri,
      redactUri(options.uri),
    );
    throw new Error(`Cannot connect to MongoDB at ${redactUri(options.uri)}: ${reason}`, { cause: error });
  }
}

export class NotAReplicaSet extends Error {
  constructor(uri: string) {
    super(
      `MongoDB at ${redactUri(uri)} is a standalone server. The store writes each change and its ` +
        'outbox events in one transaction, which needs a replica set (or a sharded cluster). For a ' +
        'single local server start mongod with --replSet rs0 and run rs.initiate() once ' +
        '(docs/production-adapters.md).',
    );
    this.name = 'NotAReplicaSet';
  }
}

async function assertReplicaSet(connection: Connection, uri: string): Promise<void> {
  const db = connection.db;
  if (db === undefined) throw new Error('the MongoDB connection has no database');
  const hello = await db.admin().command({ hello: 1 });
  const replicaSet = typeof hello.setName === 'string';
  const sharded = hello.msg === 'isdbgrid';
  if (!replicaSet && !sharded) throw new NotAReplicaSet(uri);
}
