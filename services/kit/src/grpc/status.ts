// AppError across the wire, both ways. A service's AppError travels as the catalogue's gRPC status plus
// an ErrorDetail trailer (`fieldops-error-bin`) so the caller rebuilds the same code, message and extras.
// Any other failure (transport, deadline, a foreign server) is mapped from the bare status, exhaustively.
import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import { common } from '@fieldops/proto';
import { AppError, ERROR_CATALOGUE, isErrorCode } from '../errors.ts';
import type { ErrorCode, ErrorExtras } from '../errors.ts';

export const ERROR_METADATA_KEY = 'fieldops-error-bin';

// Extras are built for a JSON body, but a stray BigInt or cycle must not turn an answer into a crash.
function extrasJson(extras: ErrorExtras): string {
  try {
    return JSON.stringify(extras);
  } catch {
    return '{}';
  }
}

/** The status a server answers with for an AppError. */
export function toGrpcError(error: AppError): ServiceError {
  const detail: common.ErrorDetail = {
    code: error.code,
    message: error.message,
    extrasJson: extrasJson(error.extras),
  };
  const metadata = new Metadata();
  metadata.set(ERROR_METADATA_KEY, Buffer.from(common.ErrorDetail.encode(detail).finish()));
  return Object.assign(new Error(error.message), {
    code: ERROR_CATALOGUE[error.code].grpc,
    details: error.message,
    metadata,
  });
}

function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number';
}

function parseExtras(json: string): ErrorExtras | undefined {
  if (json === '') return {};
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as ErrorExtras)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The AppError a kit server sent, or undefined when the trailer is absent or not ours. */
function fromDetail(error: ServiceError): AppError | undefined {
  const [value] = error.metadata?.get(ERROR_METADATA_KEY) ?? [];
  if (!Buffer.isBuffer(value)) return undefined;
  let detail: common.ErrorDetail;
  try {
    detail = common.ErrorDetail.decode(value);
  } catch {
    return undefined;
  }
  const extras = parseExtras(detail.extrasJson);
  if (!isErrorCode(detail.code) || extras === undefined) return undefined;
  return new AppError(detail.code, detail.message, extras, { cause: error });
}

const RETRY = 'Retry the request shortly; a write sent with the same idempotency key is applied once.';

function assertNever(value: never): never {
  throw new Error(`Unmapped gRPC status ${String(value)}`);
}

/**
 * The code and sentence for a status that came without our detail. The server's own `details` are
 * never used: they may carry internals, and the original error stays available as `cause`.
 */
function fromStatus(code: GrpcStatus): [ErrorCode, string] {
  switch (code) {
    case GrpcStatus.UNAVAILABLE:
      return ['unavailable', `The service is unavailable right now. ${RETRY}`];
    case GrpcStatus.DEADLINE_EXCEEDED:
      return ['unavailable', `The service did not answer in time. ${RETRY}`];
    case GrpcStatus.CANCELLED:
      return ['unavailable', `The call to the service was cancelled before it answered. ${RETRY}`];
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return ['unavailable', `The service is overloaded right now. ${RETRY}`];
    case GrpcStatus.NOT_FOUND:
      return ['not_found', 'The requested resource does not exist.'];
    case GrpcStatus.INVALID_ARGUMENT:
      return ['invalid_body', 'The service could not accept the request as sent.'];
    case GrpcStatus.ABORTED:
      return [
        'conflict',
        'The request conflicted with a concurrent change. Read the resource again and retry.',
      ];
    case GrpcStatus.OK:
    case GrpcStatus.UNKNOWN:
    case GrpcStatus.ALREADY_EXISTS:
    case GrpcStatus.PERMISSION_DENIED:
    case GrpcStatus.FAILED_PRECONDITION:
    case GrpcStatus.OUT_OF_RANGE:
    case GrpcStatus.UNIMPLEMENTED:
    case GrpcStatus.INTERNAL:
    case GrpcStatus.DATA_LOSS:
    case GrpcStatus.UNAUTHENTICATED:
      return ['internal', 'The service failed to complete the request.'];
    default:
      return assertNever(code);
  }
}

/** Whatever a gRPC call rejected with, as an AppError (the original kept as `cause`). */
export function fromGrpcError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (!isServiceError(error)) {
    return new AppError('internal', 'The service failed to complete the request.', {}, { cause: error });
  }
  const carried = fromDetail(error);
  if (carried) return carried;
  // A status outside the enum (a foreign peer) is treated like UNKNOWN rather than trusted.
  const known = Object.values(GrpcStatus).includes(error.code) ? error.code : GrpcStatus.UNKNOWN;
  const [code, message] = fromStatus(known);
  return new AppError(code, message, {}, { cause: error });
}
