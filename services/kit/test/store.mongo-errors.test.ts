// How the MongoDB adapter answers the driver's failures, checked with the driver's own error objects
// (no server runs here): failovers and timeouts are `unavailable` (503, retryable), a commit whose
// result was lost is `outcome_unknown` (not retryable without the idempotency key), duplicate keys
// are StoreConflict, anything else propagates. Also: reads go to the primary whatever the URI says,
// and the relay reads the outbox at majority.
import type { Connection } from 'mongoose';
import { mongo } from 'mongoose';
import { AppError } from '../src/errors.ts';
import { mongoClientOptions } from '../src/store/mongo/connect.ts';
import {
  isTransient,
  isUnknownCommitResult,
  translateCommitFailure,
  translateFailure,
  TRANSIENT_CODES,
} from '../src/store/mongo/errors.ts';
import { MongoStore } from '../src/store/mongo/mongo-store.ts';
import { MongoOutbox, PENDING_READ } from '../src/store/mongo/outbox.ts';
import { StoreConflict } from '../src/store/port.ts';

const serverError = (code: number, codeName: string, errorLabels: string[] = []): mongo.MongoServerError =>
  new mongo.MongoServerError({ errmsg: `${codeName} (test)`, code, codeName, errorLabels });

/** What the driver throws when no server answers in time (its topology description stubbed). */
const selectionError = (): mongo.MongoServerSelectionError =>
  new mongo.MongoServerSelectionError('Server selection timed out after 10000 ms', {
    type: 'ReplicaSetNoPrimary',
    servers: new Map(),
    error: null,
  } as unknown as ConstructorParameters<typeof mongo.MongoServerSelectionError>[1]);

const writeConcernTimeout = (): mongo.MongoWriteConcernError =>
  new mongo.MongoWriteConcernError({
    ok: 1,
    writeConcernError: {
      code: 64,
      codeName: 'WriteConcernFailed',
      errmsg: 'waiting for replication timed out',
    },
  } as unknown as ConstructorParameters<typeof mongo.MongoWriteConcernError>[0]);

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('mongodb error mapping', () => {
  const stepDowns: [number, string][] = [
    [10107, 'NotWritablePrimary'],
    [11602, 'InterruptedDueToReplStateChange'],
    [189, 'PrimarySteppedDown'],
    [64, 'WriteConcernFailed'],
    [112, 'WriteConflict'],
    [91, 'ShutdownInProgress'],
    [13436, 'NotPrimaryOrSecondary'],
    [50, 'MaxTimeMSExpired'],
  ];

  it.each(stepDowns)('answers code %i (%s) as unavailable, retryable', (code, codeName) => {
    expect(TRANSIENT_CODES.get(code)).toBe(codeName);
    const error = caught(() => translateFailure(serverError(code, codeName)));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'unavailable', http: 503, retryable: true });
    expect((error as AppError).cause).toBeInstanceOf(mongo.MongoServerError);
  });

  it('answers by label, whatever the code or message', () => {
    for (const label of ['TransientTransactionError', 'RetryableWriteError']) {
      const error = serverError(2, 'BadValue', [label]);
      expect(isTransient(error)).toBe(true);
      expect(caught(() => translateFailure(error))).toMatchObject({ code: 'unavailable' });
    }
    // The message says "not primary" but neither code nor label does: not a failover.
    const lookalike = new mongo.MongoServerError({ errmsg: 'not primary', code: 2, codeName: 'BadValue' });
    expect(isTransient(lookalike)).toBe(false);
    expect(caught(() => translateFailure(lookalike))).toBe(lookalike);
  });

  it('answers a write concern timeout, a lost network, no server and a driver timeout as unavailable', () => {
    for (const error of [
      writeConcernTimeout(),
      new mongo.MongoNetworkError('connection closed'),
      new mongo.MongoNetworkTimeoutError('timed out'),
      selectionError(),
      new mongo.MongoOperationTimeoutError('Timed out during withTransaction'),
    ]) {
      expect(caught(() => translateFailure(error))).toMatchObject({ code: 'unavailable', retryable: true });
    }
  });

  it('lets a fault of ours propagate as it is', () => {
    const bad = serverError(171, 'CannotIndexParallelArrays');
    expect(caught(() => translateFailure(bad))).toBe(bad);
    const plain = new TypeError('oops');
    expect(caught(() => translateFailure(plain))).toBe(plain);
  });

  describe('a failed commit', () => {
    it('is outcome_unknown, not retryable, when the driver labels its result unknown', () => {
      const error = writeConcernTimeout();
      error.addErrorLabel(mongo.MongoErrorLabel.UnknownTransactionCommitResult);
      expect(isUnknownCommitResult(error, true)).toBe(true);
      const answer = caught(() => translateCommitFailure(error, 'leads', true));
      expect(answer).toMatchObject({ code: 'outcome_unknown', http: 503, retryable: false });
      expect((answer as AppError).message).toMatch(/Idempotency-Key/);
    });

    it('is outcome_unknown when the server is lost after the commit was sent', () => {
      expect(caught(() => translateCommitFailure(selectionError(), 'leads', true))).toMatchObject({
        code: 'outcome_unknown',
      });
      expect(
        caught(() => translateCommitFailure(new mongo.MongoNetworkError('closed'), 'leads', true)),
      ).toMatchObject({ code: 'outcome_unknown' });
    });

    it('is unavailable when the server is lost before the commit was sent, or says it aborted', () => {
      expect(caught(() => translateCommitFailure(selectionError(), 'leads', false))).toMatchObject({
        code: 'unavailable',
      });
      const aborted = serverError(251, 'NoSuchTransaction', ['TransientTransactionError']);
      expect(caught(() => translateCommitFailure(aborted, 'leads', true))).toMatchObject({
        code: 'unavailable',
      });
      const conflict = serverError(112, 'WriteConflict', ['TransientTransactionError']);
      expect(caught(() => translateCommitFailure(conflict, 'leads', false))).toMatchObject({
        code: 'unavailable',
      });
    });

    it('is a StoreConflict on a duplicate key, naming the key', () => {
      const duplicate = new mongo.MongoServerError({
        errmsg: 'E11000 duplicate key error',
        code: 11000,
        keyPattern: { tenantId: 1, email: 1 },
        keyValue: { tenantId: 't1', email: 'a@x' },
      });
      const answer = caught(() => translateCommitFailure(duplicate, 'people', false));
      expect(answer).toBeInstanceOf(StoreConflict);
      expect(answer).toMatchObject({ reason: 'unique', collection: 'people' });
      expect((answer as Error).message).not.toContain('a@x');
    });
  });
});

/** A store over a fake connection whose transaction fails as `fail` says (no server needed). */
function storeFailingWith(fail: { inCallback?: unknown; atCommit?: unknown }): MongoStore {
  const session = {
    withTransaction: async (run: (session: unknown) => Promise<unknown>) => {
      if (fail.inCallback !== undefined) throw fail.inCallback;
      const result = await run(session);
      if (fail.atCommit !== undefined) throw fail.atCommit;
      return result;
    },
    endSession: async () => undefined,
  };
  const client = new mongo.MongoClient('mongodb://127.0.0.1:1/test');
  const connection = {
    db: client.db('test'),
    getClient: () => ({ startSession: () => session }),
  } as unknown as Connection;
  const outbox = { seedCounter: async () => undefined, append: async () => [1] } as unknown as MongoOutbox;
  return new MongoStore(connection, outbox);
}

describe('mongodb commit answers', () => {
  const emit = [
    { op: 'emit' as const, event: { id: 'e1', tenantId: 't1', topic: 'leads', key: 't1', value: {} } },
  ];

  it('answers a server lost while committing as outcome_unknown', async () => {
    const store = storeFailingWith({ atCommit: selectionError() });
    await expect(store.commit('t1', emit)).rejects.toMatchObject({ code: 'outcome_unknown' });
  });

  it('answers a step-down before the commit was sent as unavailable', async () => {
    const store = storeFailingWith({ inCallback: serverError(10107, 'NotWritablePrimary') });
    await expect(store.commit('t1', emit)).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('answers an exhausted write conflict as unavailable', async () => {
    const conflict = serverError(112, 'WriteConflict', ['TransientTransactionError']);
    const store = storeFailingWith({ atCommit: conflict });
    await expect(store.commit('t1', emit)).rejects.toMatchObject({ code: 'unavailable' });
  });
});

describe('mongodb reads', () => {
  it('go to the primary even when the URI asks for secondaries', async () => {
    const uri = 'mongodb://a:27017,b:27017/fieldops?replicaSet=rs0&readPreference=secondaryPreferred';
    const client = new mongo.MongoClient(uri, mongoClientOptions({ uri, dbName: 'fieldops_crm' }));
    expect(client.readPreference.mode).toBe('primary');
    expect(client.db('fieldops_crm').collection('leads').readPreference?.mode).toBe('primary');
    await client.close();
  });

  it('of the outbox by the relay are at majority, on the primary', async () => {
    const client = new mongo.MongoClient('mongodb://127.0.0.1:1/test?readPreference=nearest');
    const outbox = new MongoOutbox({ db: client.db('test') } as unknown as Connection);
    expect(PENDING_READ.readConcern.level).toBe('majority');
    expect(outbox.pendingRecords.readConcern?.level).toBe('majority');
    expect(outbox.pendingRecords.readPreference?.mode).toBe('primary');
    await client.close();
  });
});
