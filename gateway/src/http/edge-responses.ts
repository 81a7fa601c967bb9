// Every error the HTTP edge itself can answer, before or around an endpoint (edge-guard.ts,
// edge-errors.ts): the data the OpenAPI document declares for each operation, so the contract
// names the statuses a client can meet even when no endpoint ran. Limits are data too.
import type { ErrorCode } from '@fieldops/kit';

/** Bodies on /api/v1, counted after decompression (a 20 KB gzip of 20 MB is refused). */
export const API_BODY_MAX_BYTES = 1024 * 1024;
/** Bodies on the operator and portal APIs (/admin/v1, /api/portal). */
export const FORM_BODY_MAX_BYTES = 100 * 1024;

export interface EdgeResponse {
  status: number;
  code: ErrorCode;
  description: string;
  /** Whether the response applies only to operations with a path parameter. */
  pathParams?: boolean;
}

export const EDGE_RESPONSES: readonly EdgeResponse[] = [
  {
    status: 400,
    code: 'field_invalid',
    description: 'A path parameter is not valid percent-encoded UTF-8; `field` names the parameter.',
    pathParams: true,
  },
  {
    status: 400,
    code: 'invalid_body',
    description: 'The body does not decode as its Content-Encoding says, or ends before its Content-Length.',
  },
  {
    status: 400,
    code: 'invalid_json',
    description: 'The body is not valid JSON.',
  },
  {
    status: 413,
    code: 'payload_too_large',
    description: `The body is over ${API_BODY_MAX_BYTES} bytes once decompressed; \`limitBytes\` states the limit.`,
  },
  {
    status: 415,
    code: 'unsupported_media_type',
    description:
      'A Content-Encoding other than gzip, deflate or br (`encoding`), or a JSON charset other than UTF-8 (`charset`).',
  },
  {
    status: 500,
    code: 'internal',
    description: 'A fault of ours; never retryable. A transient cause is 503 unavailable instead.',
  },
];

/** Members the edge's errors add to the failure body (beside `field`), for the contract's error schema. */
export const EDGE_ERROR_FIELDS = {
  limitBytes: { type: 'integer', description: 'On a 413: the body limit in bytes.' },
  encoding: { type: 'string', description: 'On a 415: the Content-Encoding refused.' },
  charset: { type: 'string', description: 'On a 415: the charset refused.' },
} as const;

/** The edge's error codes an operation can answer; `hasPathParams` from its declaration. */
export function edgeErrorCodes(hasPathParams: boolean): ErrorCode[] {
  return EDGE_RESPONSES.filter((r) => hasPathParams || !r.pathParams).map((r) => r.code);
}
