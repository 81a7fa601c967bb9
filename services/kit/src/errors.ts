// One error type for the whole platform. Services throw AppError with a spec error code; the
// gRPC layer carries it across (grpc/status.ts) and the gateway renders it as the spec's body
// {ok:false, code, error, retryable, ...extras} with the HTTP status from this table.
import { status as GrpcStatus } from '@grpc/grpc-js';

/** The error catalogue: spec codes plus the few the spec leaves open (marked). */
export const ERROR_CATALOGUE = {
  no_credential: { http: 401, retryable: false, grpc: GrpcStatus.UNAUTHENTICATED },
  invalid_token: { http: 401, retryable: false, grpc: GrpcStatus.UNAUTHENTICATED },
  revoked: { http: 401, retryable: false, grpc: GrpcStatus.UNAUTHENTICATED },
  expired: { http: 401, retryable: false, grpc: GrpcStatus.UNAUTHENTICATED },
  no_session: { http: 401, retryable: false, grpc: GrpcStatus.UNAUTHENTICATED },
  read_only: { http: 403, retryable: false, grpc: GrpcStatus.PERMISSION_DENIED },
  out_of_scope: { http: 403, retryable: false, grpc: GrpcStatus.PERMISSION_DENIED },
  role_denied: { http: 403, retryable: false, grpc: GrpcStatus.PERMISSION_DENIED },
  invalid_json: { http: 400, retryable: false, grpc: GrpcStatus.INVALID_ARGUMENT },
  invalid_body: { http: 400, retryable: false, grpc: GrpcStatus.INVALID_ARGUMENT },
  field_required: { http: 400, retryable: false, grpc: GrpcStatus.INVALID_ARGUMENT },
  field_invalid: { http: 400, retryable: false, grpc: GrpcStatus.INVALID_ARGUMENT },
  field_invalid_enum: { http: 400, retryable: false, grpc: GrpcStatus.INVALID_ARGUMENT },
  field_too_long: { http: 400, retryable: false, grpc: GrpcStatus.INVALID_ARGUMENT },
  unknown_field: { http: 400, retryable: false, grpc: GrpcStatus.INVALID_ARGUMENT },
  not_found: { http: 404, retryable: false, grpc: GrpcStatus.NOT_FOUND },
  /** Not in the spec (HTTP's 413): a body over the edge's limit, counted after decompression. */
  payload_too_large: { http: 413, retryable: false, grpc: GrpcStatus.INVALID_ARGUMENT },
  /** Not in the spec (HTTP's 415): a Content-Encoding or JSON charset the edge does not read. */
  unsupported_media_type: { http: 415, retryable: false, grpc: GrpcStatus.INVALID_ARGUMENT },
  principal_unbound: { http: 409, retryable: false, grpc: GrpcStatus.FAILED_PRECONDITION },
  conflict: { http: 409, retryable: true, grpc: GrpcStatus.ABORTED },
  confirmation_required: { http: 409, retryable: false, grpc: GrpcStatus.FAILED_PRECONDITION },
  /** Spec: "A missing If-Match on an amending write is HTTP 428"; the code name is ours. */
  precondition_required: { http: 428, retryable: false, grpc: GrpcStatus.FAILED_PRECONDITION },
  rate_limited: { http: 429, retryable: true, grpc: GrpcStatus.RESOURCE_EXHAUSTED },
  unavailable: { http: 503, retryable: true, grpc: GrpcStatus.UNAVAILABLE },
  /**
   * Not in the spec: the data store lost the answer to a write (a failover while it committed), so
   * the write may or may not have been applied. Not retryable as it stands: a retry with the same
   * Idempotency-Key is safe, one without may apply the write twice (docs/decisions.md).
   */
  outcome_unknown: { http: 503, retryable: false, grpc: GrpcStatus.UNKNOWN },
  /**
   * Not in the spec: a fault of ours (a bug). The body says nothing about the cause. Not retryable:
   * the same request meets the same bug; a transient cause (an unreachable service) is `unavailable`.
   */
  internal: { http: 500, retryable: false, grpc: GrpcStatus.INTERNAL },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, value);
}

/** Extra members of the error body (required, legalTransitions, current, confirmToken, ...). */
export type ErrorExtras = Record<string, unknown>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly extras: ErrorExtras;
  constructor(code: ErrorCode, message: string, extras: ErrorExtras = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.extras = extras;
    this.name = 'AppError';
  }

  get http(): number {
    return ERROR_CATALOGUE[this.code].http;
  }

  get retryable(): boolean {
    return ERROR_CATALOGUE[this.code].retryable;
  }

  /** The spec's failure body. */
  toBody(): Record<string, unknown> {
    return { ok: false, code: this.code, error: this.message, retryable: this.retryable, ...this.extras };
  }
}

export const notFound = (kind: string, id: string): AppError =>
  new AppError('not_found', `No ${kind} with id ${id} exists in this tenant.`);
