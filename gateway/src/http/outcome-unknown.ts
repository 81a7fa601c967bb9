// Why: a write whose answer was lost (the service's store lost the commit's answer in a failover,
// or the gRPC call ran out of its deadline while the service may still commit) may or may not
// have been applied. The client gets the spec's `unavailable` envelope (503, retryable) so that
// generic clients back off and retry, but told apart by `outcomeUnknown: true` and a sentence that
// says to retry with the same Idempotency-Key or opId: a keyless retry could apply it twice.
import { status as GrpcStatus } from '@grpc/grpc-js';
import { AppError } from '@fieldops/kit';

export const OUTCOME_UNKNOWN_MESSAGE =
  'The write may or may not have been applied: the service did not confirm it in time. ' +
  'Retry with the same Idempotency-Key header (or the same opId), which applies it at most once; ' +
  'a retry without one may apply it twice.';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The error as a client of `method` must see it: an unknown write outcome said as such. */
export function forClient(error: AppError, method: string | undefined): AppError {
  if (method === undefined || READS.has(method)) return error;
  if (error.code !== 'outcome_unknown' && !isDeadlineExceeded(error)) return error;
  return new AppError('unavailable', OUTCOME_UNKNOWN_MESSAGE, { outcomeUnknown: true }, { cause: error });
}

/** The gRPC call gave up at its deadline (kit/grpc/status.ts keeps the status as the cause). */
function isDeadlineExceeded(error: AppError): boolean {
  const cause = error.cause as { code?: unknown; details?: unknown } | undefined;
  return error.code === 'unavailable' && cause?.code === GrpcStatus.DEADLINE_EXCEEDED && 'details' in cause;
}
