// Chooses each port's adapter from the configuration: the embedded defaults under the data dir,
// or the production adapter when its variable is set (ARCHITECTURE §3): MONGODB_URI for the
// document stores, KAFKA_BROKERS for the event log, REDIS_URL for the fast state. The MongoDB,
// Kafka and Redis adapters are imported only when selected: loading mongoose alone takes about a
// second (ioredis a tenth), which `npm start` and every test platform would otherwise pay for nothing.
// (The image's bundles load all three at start: esbuild hoists a lazily imported module's package
// imports to the bundle's top, and a deployment selects them anyway.)
import { join } from 'node:path';
import type { OpenedBlobStore } from './blobs/open-blob-store.ts';
import type { Config } from './config.ts';
import { health } from './health.ts';
import { openEmbeddedEventLog } from './events/embedded.ts';
import type { EventLog } from './events/port.ts';
import { traceConsumers } from './events/traced-consumers.ts';
import { createEmbeddedFastState } from './fast/embedded.ts';
import type { FastState } from './fast/port.ts';
import type { Logger } from './log.ts';
import { openEmbeddedStore } from './store/embedded.ts';
import type { DocumentStore } from './store/port.ts';
import { traceCalls } from './tracing/traced-calls.ts';

/**
 * Partitions of the domain event topics (`fieldops.<service>.events`, keyed by tenant) when the
 * platform creates them: enough for a dozen consumers of one group to share the work. Every other
 * topic (dead letters, tests) gets one. A topic that already exists is left as it is, so an
 * operator who wants another count creates the topics first (docs/production-adapters.md).
 */
export const EVENT_TOPIC_PARTITIONS = 12;

export function partitionsForTopic(topic: string): number {
  return /^fieldops\.[a-z0-9-]+\.events$/.test(topic) ? EVENT_TOPIC_PARTITIONS : 1;
}

/** Each service owns its own store: its own folder, or its own MongoDB database. */
export async function openServiceStore(config: Config, service: string): Promise<DocumentStore> {
  const store = traceStore(await openConfiguredStore(config, service), config);
  // Required: a process whose store does not answer cannot serve, and leaves its Service.
  const unregister = health.register(`store:${service}`, () => store.ping());
  const close = store.close.bind(store);
  store.close = async () => {
    unregister();
    await close();
  };
  return store;
}

/** The store's calls that become spans inside a recorded trace: those that name a collection first. */
const COLLECTION_CALLS = ['get', 'findOne', 'find', 'page', 'pageJson', 'count'] as const;
const STORE_CALLS = [
  ...COLLECTION_CALLS,
  'commit',
  'pendingOutbox',
  'markPublished',
  'acquireLease',
  'releaseLease',
] as const satisfies readonly (keyof DocumentStore)[];
const NAMES_A_COLLECTION: readonly string[] = COLLECTION_CALLS;

const traceStore = (store: DocumentStore, config: Config): DocumentStore =>
  traceCalls(store, {
    system: config.mongodbUri === undefined ? EMBEDDED_SYSTEM : 'mongodb',
    methods: STORE_CALLS,
    targetOf: (method, args) => (NAMES_A_COLLECTION.includes(method) ? String(args[0]) : undefined),
  });

/** `db.system.name` of the embedded adapters (no registered value names them). */
const EMBEDDED_SYSTEM = 'fieldops.embedded';

async function openConfiguredStore(config: Config, service: string): Promise<DocumentStore> {
  if (config.mongodbUri !== undefined) {
    const { serviceDatabaseName } = await import('./store/mongo/connect.ts');
    const { openMongoStore } = await import('./store/mongo/mongo-store.ts');
    return openMongoStore({
      uri: config.mongodbUri,
      dbName: serviceDatabaseName(config.mongodbUri, service),
      bounds: config.mongodb,
    });
  }
  return openEmbeddedStore({ dir: join(config.dataDir, service), fsync: config.fsync });
}

/**
 * The event log KAFKA_BROKERS selects; with a logger, the Kafka client's warnings go to it. Its
 * connection to the broker shows on /readyz as the report-only check `event-log` (false while a
 * consumer or the producer reconnects; see docs/production-adapters.md).
 */
export async function openEventLog(config: Config, logger?: Logger): Promise<EventLog> {
  const log = traceConsumers(await openConfiguredEventLog(config, logger));
  const unregister = health.register('event-log', () => log.status().connected, { required: false });
  const close = log.close.bind(log);
  log.close = async () => {
    unregister();
    await close();
  };
  return log;
}

async function openConfiguredEventLog(config: Config, logger?: Logger): Promise<EventLog> {
  if (config.kafkaBrokers !== undefined && config.kafkaBrokers.length > 0) {
    const { openKafkaEventLog } = await import('./events/kafka/kafka-log.ts');
    return openKafkaEventLog({
      brokers: config.kafkaBrokers,
      ssl: config.kafkaSecurity.ssl,
      sasl: config.kafkaSecurity.sasl,
      namespace: config.kafkaNamespace,
      ...(logger === undefined
        ? {}
        : { onLog: (entry) => logger[entry.level]({ namespace: entry.namespace }, entry.message) }),
      partitionsFor: partitionsForTopic,
      retryBaseMs: config.eventRetry.baseMs,
      retryCapMs: config.eventRetry.capMs,
    });
  }
  return openEmbeddedEventLog({
    dir: join(config.dataDir, 'events'),
    fsync: config.fsync,
    retryBaseMs: config.eventRetry.baseMs,
    retryCapMs: config.eventRetry.capMs,
  });
}

async function connectRedis(config: Config, url: string): Promise<FastState> {
  const { connectRedisFastState } = await import('./fast/redis.ts');
  return connectRedisFastState({
    url,
    commandTimeoutMs: config.redisCommandTimeoutMs,
    namespace: config.redisNamespace,
  });
}

export async function openFastState(config: Config): Promise<FastState> {
  const fast = config.redisUrl ? await connectRedis(config, config.redisUrl) : createEmbeddedFastState();
  return traceCalls(fast, {
    system: config.redisUrl ? 'redis' : EMBEDDED_SYSTEM,
    methods: FAST_STATE_CALLS,
    targetOf: (_method, args) => keyFamily(String(args[0])),
  });
}

const FAST_STATE_CALLS = [
  'takeToken',
  'spendBudget',
  'peekBudget',
  'acquireLock',
  'releaseLock',
  'put',
  'putIfAbsent',
  'get',
  'take',
  'delete',
] as const satisfies readonly (keyof FastState)[];

/** A key's first segment (`rate` of `rate:<bucket>:<token>`): what it is, not whose. */
const keyFamily = (key: string): string | undefined => /^([a-z][a-z-]*):/.exec(key)?.[1];

/**
 * The blob store the environment selects (blobs/open-blob-store.ts: S3 when its variables are set,
 * else the embedded store under the data dir). Loaded on first call, like the adapters above: the
 * S3 SDK takes about a second to load.
 */
export async function openBlobStore(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<OpenedBlobStore> {
  const { openBlobStore: open } = await import('./blobs/open-blob-store.ts');
  return open(dataDir, env);
}
export type { OpenedBlobStore };
