// What MongoDB's errors mean to the port: a duplicate key is a StoreConflict, an unreachable
// server is `unavailable` (503, retryable), anything else is a fault that propagates as it is.
import { mongo } from 'mongoose';
import { AppError } from '../../errors.js';
import { StoreConflict } from '../port.js';

const DUPLICATE_KEY = 11000;

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
 * True for failures that say the server could not be reached or chosen, not that the request was
 * wrong: the caller should answer "retry shortly" rather than report a fault.
 */
export function isUnreachable(error: unknown): boolean {
  return (
    error instanceof mongo.MongoNetworkError ||
    error instanceof mongo.MongoServerSelectionError ||
    error instanceof mongo.MongoNotConnectedError ||
    error instanceof mongo.MongoTopologyClosedError
  );
}

export function unavailable(cause: unknown): AppError {
  return new AppError(
    'unavailable',
    'The data store cannot be reached right now; retry shortly.',
    {},
    {
      cause,
    },
  );
}

/** Rethrows `error` as `unavailable` when the server could not be reached; otherwise as it is. */
export function translateFailure(error: unknown): never {
  throw isUnreachable(error) ? unavailable(error) : error;
}
