// What MongoDB's errors mean to the port, decided by the driver's error labels, server codes and
// error classes, never by message text (messages change between server versions):
// - a duplicate key (11000) is a StoreConflict;
// - an unreachable server, a failover (step-down, not writable primary, interrupted by a replica
//   set state change), a write concern that timed out, a write conflict the driver gave up
//   retrying, a timeout, or any error the driver labels transient or retryable is `unavailable`
//   (503, retry shortly): nothing was written, or a retry is safe;
// - a commit whose result the driver could not learn (`UnknownTransactionCommitResult`, or the
//   server lost after the commit was sent) is `outcome_unknown`: the change may have landed, so a
//   blind retry could write it twice (docs/decisions.md, "MongoDB failovers");
// - anything else is a fault that propagates as it is (500).
import { mongo } from 'mongoose';
import { AppError } from '../../errors.ts';
import { StoreConflict } from '../port.ts';

const DUPLICATE_KEY = 11000;

/**
 * Server codes that mean "the server or the replica set could not do it now", not "the request was
 * wrong". Names as the server spells them (src/mongo/base/error_codes.yml).
 */
export const TRANSIENT_CODES: ReadonlyMap<number, string> = new Map([
  [6, 'HostUnreachable'],
  [7, 'HostNotFound'],
  [50, 'MaxTimeMSExpired'],
  [64, 'WriteConcernFailed'],
  [89, 'NetworkTimeout'],
  [91, 'ShutdownInProgress'],
  [112, 'WriteConflict'],
  [189, 'PrimarySteppedDown'],
  [251, 'NoSuchTransaction'],
  [262, 'ExceededTimeLimit'],
  [9001, 'SocketException'],
  [10107, 'NotWritablePrimary'],
  [11600, 'InterruptedAtShutdown'],
  [11602, 'InterruptedDueToReplStateChange'],
  [13435, 'NotPrimaryNoSecondaryOk'],
  [13436, 'NotPrimaryOrSecondary'],
]);

/** Labels the driver or server attach to an error that a retry of the whole operation may cure. */
const TRANSIENT_LABELS = [
  mongo.MongoErrorLabel.TransientTransactionError,
  mongo.MongoErrorLabel.RetryableWriteError,
  mongo.MongoErrorLabel.ResetPool,
  mongo.MongoErrorLabel.PoolRequestedRetry,
  mongo.MongoErrorLabel.SystemOverloadedError,
] as const;

/** Driver-side errors (no server code) that mean the server could not be reached, chosen or waited for. */
const UNREACHABLE_NAMES = new Set(['MongoWaitQueueTimeoutError', 'MongoPoolClosedError']);

export function isDuplicateKey(error: unknown): error is mongo.MongoServerError {
  return error instanceof mongo.MongoServerError && error.code === DUPLICATE_KEY;
}

/** The conflict a duplicate-key error stands for, described by the key's fields (never its values). */
export function duplicateKeyConflict(collection: string, error: mongo.MongoServerError): StoreConflict {
  const fields = Object.keys((error.keyPattern as Record<string, unknown> | undefined) ?? {}).filter(
    (field) => field !== 'tenantId',
  );
  const id = (error.keyValue as Record<string, unknown> | undefined)?.id;
  if (fields.length === 1 && fields[0] === 'id' && typeof id === 'string') {
    return new StoreConflict('unique', collection, `document ${id} already exists`);
  }
  const key = fields.length > 0 ? `key (${fields.join(', ')})` : 'a unique key';
  return new StoreConflict('unique', collection, `${key} is taken by another document`);
}

/**
 * True for failures that say the server could not be reached, chosen or answered in time: the
 * request itself may never have arrived.
 */
export function isUnreachable(error: unknown): boolean {
  return (
    error instanceof mongo.MongoNetworkError ||
    error instanceof mongo.MongoServerSelectionError ||
    error instanceof mongo.MongoNotConnectedError ||
    error instanceof mongo.MongoTopologyClosedError ||
    error instanceof mongo.MongoOperationTimeoutError ||
    (error instanceof mongo.MongoError && UNREACHABLE_NAMES.has(error.name))
  );
}

/**
 * True for failures a retry of the whole operation may cure: unreachable servers, failovers,
 * write-concern timeouts, exhausted write conflicts, and whatever the driver labels transient or
 * retryable.
 */
export function isTransient(error: unknown): boolean {
  if (isUnreachable(error)) return true;
  if (!(error instanceof mongo.MongoError)) return false;
  if (TRANSIENT_LABELS.some((label) => error.hasErrorLabel(label))) return true;
  const code = typeof error.code === 'number' ? error.code : undefined;
  if (code !== undefined && TRANSIENT_CODES.has(code)) return true;
  // A write concern error carries its own code (64 when wtimeout passed) beside the command's.
  const concern = (error as mongo.MongoServerError).writeConcernError as { code?: unknown } | undefined;
  return typeof concern?.code === 'number' && TRANSIENT_CODES.has(concern.code);
}

/**
 * True when a commit may or may not have been applied: the driver says so with its label, or the
 * server was lost (or the deadline passed) after the commit had been sent. `commitSent` is false
 * while the transaction's own operations run: a failure then always aborts the transaction.
 */
export function isUnknownCommitResult(error: unknown, commitSent: boolean): boolean {
  if (!(error instanceof mongo.MongoError)) return false;
  if (error.hasErrorLabel(mongo.MongoErrorLabel.UnknownTransactionCommitResult)) return true;
  // The server answered that the transaction was aborted: nothing was written.
  if (error.hasErrorLabel(mongo.MongoErrorLabel.TransientTransactionError)) return false;
  return commitSent && isUnreachable(error);
}

export function unavailable(cause: unknown): AppError {
  return new AppError(
    'unavailable',
    'The data store cannot be reached right now; retry shortly.',
    {},
    { cause },
  );
}

/**
 * The store lost the answer to a commit: it may have been applied. Not retryable as it stands: a
 * retry with the same idempotency key is safe (it finds the first attempt's record if it landed),
 * one without a key may apply the change twice.
 */
export function outcomeUnknown(cause: unknown): AppError {
  return new AppError(
    'outcome_unknown',
    'The data store lost the answer to this write during a failover, so it may or may not have been ' +
      'applied. Retry only with the same Idempotency-Key, or read the resource first.',
    {},
    { cause },
  );
}

/** Rethrows a read's (or a non-transactional write's) failure: transient ones as `unavailable`. */
export function translateFailure(error: unknown): never {
  throw isTransient(error) ? unavailable(error) : error;
}

/**
 * Rethrows a commit's failure: StoreConflict as it is, a duplicate key as StoreConflict naming
 * `collection`, an unknown result as `outcome_unknown`, a transient failure as `unavailable`.
 */
export function translateCommitFailure(error: unknown, collection: string, commitSent: boolean): never {
  if (error instanceof StoreConflict || error instanceof AppError) throw error;
  if (isDuplicateKey(error)) throw duplicateKeyConflict(collection, error);
  if (isUnknownCommitResult(error, commitSent)) throw outcomeUnknown(error);
  translateFailure(error);
}
