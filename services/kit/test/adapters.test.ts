// Adapter selection: the production adapter whenever its variable is set (a split process must
// never fall back to an embedded one silently), the embedded one otherwise. Without a MongoDB or
// Kafka server here, "selected" shows as that adapter's own connection failure.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EVENT_TOPIC_PARTITIONS,
  openEventLog,
  openServiceStore,
  partitionsForTopic,
} from '../src/adapters.ts';
import { loadConfig } from '../src/config.ts';
import { health } from '../src/health.ts';
import { topicOf } from '../src/events/envelope.ts';
import { serviceDatabaseName } from '../src/store/mongo/connect.ts';

const rejectionOf = (promise: Promise<unknown>): Promise<Error> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as Error,
  );

describe('adapter selection', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'fieldops-adapters-'));
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('opens the embedded store and event log when no server is configured', async () => {
    const config = loadConfig({ FIELDOPS_DATA_DIR: dataDir });
    const store = await openServiceStore(config, 'crm');
    const log = await openEventLog(config);
    await store.define({ name: 'things' });
    await store.commit('t1', [
      { op: 'insert', collection: 'things', doc: { id: 'a', tenantId: 't1', version: 1 } },
    ]);
    expect(await store.get('things', 't1', 'a')).toMatchObject({ id: 'a', version: 1 });
    // Its readiness check is on the process's registry while it is open, and answers from the store.
    expect((await health.report()).checks).toMatchObject({ 'store:crm': true });
    expect(await store.ping()).toBe(true);
    await store.close();
    expect(await store.ping()).toBe(false);
    health.invalidate();
    expect((await health.report()).checks).not.toHaveProperty('store:crm');
    await log.close();
  });

  it('uses MongoDB when MONGODB_URI is set, without echoing its credentials', async () => {
    const config = loadConfig({
      FIELDOPS_DATA_DIR: dataDir,
      MONGODB_URI: 'mongodb://ops:hunter2@127.0.0.1:1/fieldops?serverSelectionTimeoutMS=300',
    });
    const failure = await rejectionOf(openServiceStore(config, 'crm'));
    expect(failure.message).toContain('Cannot connect to MongoDB at mongodb://***@127.0.0.1:1/fieldops');
    expect(failure.message).not.toContain('hunter2');
  });

  it('uses Kafka when KAFKA_BROKERS is set', async () => {
    const config = loadConfig({ FIELDOPS_DATA_DIR: dataDir, KAFKA_BROKERS: '127.0.0.1:1' });
    const failure = await rejectionOf(openEventLog(config));
    expect(failure.message).toContain('Cannot connect to Kafka at 127.0.0.1:1');
  }, 30_000);

  it('gives each service its own database, under the one named in the URI', () => {
    expect(serviceDatabaseName('mongodb://h1,h2/?replicaSet=rs0', 'crm')).toBe('fieldops_crm');
    expect(serviceDatabaseName('mongodb+srv://u:p@cluster.example.net/acme?retryWrites=true', 'audit')).toBe(
      'acme_audit',
    );
    expect(() => serviceDatabaseName('mongodb://h/bad.name', 'crm')).toThrow(/not a usable MongoDB database/);
  });

  it('partitions the domain event topics for scale and everything else once', () => {
    expect(partitionsForTopic(topicOf('crm'))).toBe(EVENT_TOPIC_PARTITIONS);
    expect(partitionsForTopic(`${topicOf('crm')}.dlq`)).toBe(1);
    expect(partitionsForTopic('scratch')).toBe(1);
  });
});
