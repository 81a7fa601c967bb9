// Why: a consumer decides, for every failed record, whether to wait or to set the record aside.
// Setting a good event aside loses it for good (audit entries, webhook deliveries, projection
// updates), so only a record that can never succeed is dead-lettered; everything else waits.
// The decision is made here once, for both event logs (embedded and Kafka).
import { AppError } from '../errors.ts';
import { PermanentEventFailure } from './port.ts';

/**
 * - `permanent`: no retry can fix it (the record is not JSON, fails its schema, or the handler
 *   threw PermanentEventFailure): dead-lettered at once.
 * - `retryable`: a dependency is away (store unavailable, a peer down, a timeout, the broker):
 *   retried with capped back-off for as long as it lasts, never dead-lettered.
 * - `unclassified`: any other error (a bug, say). Retried like a retryable one; a subscription
 *   that sets `maxAttempts` dead-letters it after that many attempts.
 */
export type FailureClass = 'permanent' | 'retryable' | 'unclassified';

/** Spec codes that say "the same request may succeed later" (errors.ts). */
const RETRYABLE_CODES = new Set(['unavailable', 'outcome_unknown', 'conflict', 'rate_limited']);

/** Node's socket and DNS errors: the peer or the network is away, not the record at fault. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** gRPC statuses a call may succeed after: UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED. */
const RETRYABLE_GRPC_STATUSES = new Set([14, 4, 8, 10]);

/** Error names of drivers (MongoDB, ioredis, fetch) for a dependency that is away. */
const RETRYABLE_NAMES = new Set([
  'AbortError',
  'TimeoutError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoWriteConcernError',
  'MaxRetriesPerRequestError',
]);

export function classifyFailure(error: unknown): FailureClass {
  for (let cause = error, depth = 0; cause !== undefined && depth < 8; depth += 1) {
    if (cause instanceof PermanentEventFailure) return 'permanent';
    if (isRetryable(cause)) return 'retryable';
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return 'unclassified';
}

function isRetryable(error: unknown): boolean {
  if (error instanceof AppError) return RETRYABLE_CODES.has(error.code);
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, retriable } = error as { name?: unknown; code?: unknown; retriable?: unknown };
  if (typeof name === 'string' && RETRYABLE_NAMES.has(name)) return true;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  // A gRPC ServiceError carries its status as a number, together with `details`.
  if (typeof code === 'number' && 'details' in error && RETRYABLE_GRPC_STATUSES.has(code)) return true;
  // The Kafka client (@platformatic/kafka) marks a lost broker by its code, and its transient
  // answers with canRetry; other drivers mark theirs `retriable`; MongoDB labels them.
  if (code === 'PLT_KFK_NETWORK' || code === 'PLT_KFK_TIMEOUT') return true;
  if (retriable === true || (error as { canRetry?: unknown }).canRetry === true) return true;
  const members = (error as { errors?: unknown }).errors;
  if (Array.isArray(members) && members.length > 0 && members.every((member) => isRetryable(member)))
    return true;
  const labels = (error as { errorLabels?: unknown }).errorLabels;
  if (Array.isArray(labels) || labels instanceof Set) {
    return [...labels].some(
      (label) => label === 'RetryableWriteError' || label === 'TransientTransactionError',
    );
  }
  return false;
}

/** For the x-error header of a dead letter and for logs: enough to diagnose, bounded in size. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 2000);
}
