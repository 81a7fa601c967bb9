// Failure injection on a real MongoDB replica set through the server's `failCommand` fail point
// (MONGODB_URI, and a server started with enableTestCommands=1; `npm run test:adapters`): how the
// store answers a failover in the middle of a commit, a commit whose answer was lost, write
// conflicts on a tenant's outbox counter, and a lease it could not take. The fail point only hits
// this file's client (its appName), so other suites on the same server are not disturbed.
// Without MONGODB_URI, or on a server that refuses fail points, the suite shows up as skipped with
// the reason in its title. docs/production-adapters.md lists what has only been read or unit-tested.
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { openMongoStore } from '../src/store/mongo/mongo-store.ts';
import type { DocumentStore, WriteOp } from '../src/store/port.ts';

const uri = process.env.MONGODB_URI ?? '';
const appName = `fieldops-failpoints-${randomUUID().slice(0, 8)}`;

/** The URI with this file's appName, which the fail points filter on. */
function withAppName(base: string): string {
  const [path = '', query] = base.split('?');
  return `${path}?${query ? `${query}&` : ''}appName=${appName}`;
}

async function admin<T>(run: (db: mongoose.mongo.Db) => Promise<T>): Promise<T> {
  const connection = await mongoose.createConnection(uri, { dbName: 'admin' }).asPromise();
  try {
    return await run(connection.db!);
  } finally {
    await connection.close();
  }
}

/** Why the suite cannot run here, or null when it can. */
async function unavailableBecause(): Promise<string | null> {
  if (uri === '') return 'MONGODB_URI is not set';
  try {
    await admin((db) => db.command({ configureFailPoint: 'failCommand', mode: 'off' }));
    return null;
  } catch (error) {
    return `the server refuses fail points (${(error as Error).message}); start it with enableTestCommands=1`;
  }
}

const reason = await unavailableBecause();
const describeWithFailPoints = reason === null ? describe : describe.skip;
const title =
  reason === null
    ? 'mongodb store under failCommand'
    : `mongodb store under failCommand (skipped: ${reason})`;

async function failCommand(
  mode: 'alwaysOn' | { times: number },
  data: Record<string, unknown>,
): Promise<void> {
  await admin((db) => db.command({ configureFailPoint: 'failCommand', mode, data: { appName, ...data } }));
}

async function failPointsOff(): Promise<void> {
  await admin((db) => db.command({ configureFailPoint: 'failCommand', mode: 'off' }));
}

const emit = (tenantId: string, n: number): WriteOp => ({
  op: 'emit',
  event: { id: `e${n}`, tenantId, topic: 'people', key: tenantId, value: { n } },
});
const insert = (tenantId: string, id: string): WriteOp => ({
  op: 'insert',
  collection: 'people',
  doc: { id, tenantId, version: 1 },
});

describeWithFailPoints(title, () => {
  let store: DocumentStore;
  let dbName: string;

  beforeEach(async () => {
    dbName = `fieldops_test_${randomUUID().slice(0, 8)}`;
    store = await openMongoStore({
      uri: withAppName(uri),
      dbName,
      indexes: 'create',
      bounds: { operationTimeoutMs: 2_000, maxPoolSize: 5, waitQueueTimeoutMs: 1_000 },
    });
    await store.define({ name: 'people', unique: [['email']] });
  });

  afterEach(async () => {
    await failPointsOff();
    await store.close();
    const connection = await mongoose.createConnection(uri, { dbName }).asPromise();
    await connection.dropDatabase();
    await connection.close();
  });

  it('retries a commit that met a step-down once, and writes it once', async () => {
    await failCommand({ times: 1 }, { failCommands: ['insert'], errorCode: 10107 });
    await store.commit('t1', [insert('t1', 'p1'), emit('t1', 1)]);
    expect(await store.get('people', 't1', 'p1')).toMatchObject({ id: 'p1', version: 1 });
    expect((await store.pendingOutbox(10)).map((record) => record.seq)).toEqual([1]);
  });

  it('answers a primary that stays unwritable as unavailable, and writes nothing', async () => {
    await failCommand('alwaysOn', { failCommands: ['insert'], errorCode: 10107 });
    await expect(store.commit('t1', [insert('t1', 'p1')])).rejects.toMatchObject({ code: 'unavailable' });
    await failPointsOff();
    expect(await store.get('people', 't1', 'p1')).toBeNull();
  });

  it('answers a commit whose answer was lost as outcome_unknown', async () => {
    await failCommand('alwaysOn', { failCommands: ['commitTransaction'], closeConnection: true });
    await expect(store.commit('t1', [insert('t1', 'p1')])).rejects.toMatchObject({ code: 'outcome_unknown' });
  });

  it("retries write conflicts on a tenant's outbox counter and keeps its seqs consecutive", async () => {
    await failCommand(
      { times: 2 },
      { failCommands: ['findAndModify'], errorCode: 112, errorLabels: ['TransientTransactionError'] },
    );
    await store.commit('t1', [emit('t1', 1)]);
    await store.commit('t1', [emit('t1', 2), emit('t1', 3)]);
    expect((await store.pendingOutbox(10)).map((record) => record.seq)).toEqual([1, 2, 3]);
  });

  it('answers a lease it could not reach as unavailable, and takes it once the server is back', async () => {
    await failCommand({ times: 1 }, { failCommands: ['findAndModify'], errorCode: 91 });
    await expect(store.acquireLease('outbox-relay', 'me', 10_000)).rejects.toMatchObject({
      code: 'unavailable',
    });
    expect(await store.acquireLease('outbox-relay', 'me', 10_000)).toMatchObject({
      generation: expect.any(Number),
    });
  });
});
