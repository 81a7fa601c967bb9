// Protocol-level failures as the spec's errors: what Express's router and body-parser throw for a
// request that never reaches an endpoint (a body over the limit, an encoding we do not read, a
// body that does not inflate, a path that does not decode). Without this they would fall through
// to 500 `internal`, which tells a client the fault is ours.
import { AppError } from '@fieldops/kit';

/** The fields of an http-errors error (body-parser, raw-body, router) that the mapping reads. */
interface HttpErrorLike {
  type?: unknown;
  status?: unknown;
  limit?: unknown;
  encoding?: unknown;
  charset?: unknown;
  code?: unknown;
  errno?: unknown;
}

const asHttpError = (err: unknown): HttpErrorLike | undefined =>
  typeof err === 'object' && err !== null ? (err as HttpErrorLike) : undefined;

export const describeBytes = (bytes: number): string =>
  bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MiB (${bytes} bytes)`
    : bytes >= 1024 && bytes % 1024 === 0
      ? `${bytes / 1024} KiB (${bytes} bytes)`
      : `${bytes} bytes`;

export function payloadTooLarge(limitBytes: number): AppError {
  return new AppError(
    'payload_too_large',
    `The request body is over the limit of ${describeBytes(limitBytes)}, counted after any Content-Encoding is undone; send a smaller body.`,
    { limitBytes },
  );
}

export function unsupportedEncoding(encoding: string): AppError {
  return new AppError(
    'unsupported_media_type',
    `Content-Encoding ${encoding} is not supported; send the body uncompressed or as gzip, deflate or br.`,
    { encoding },
  );
}

export function unsupportedCharset(charset: string): AppError {
  return new AppError(
    'unsupported_media_type',
    `JSON is read as UTF-8 only; send Content-Type: application/json (charset=utf-8), not charset=${charset}.`,
    { charset },
  );
}

export function badPathEncoding(field: string): AppError {
  return new AppError(
    'field_invalid',
    `The path parameter ${field} is not valid percent-encoded UTF-8; encode it with encodeURIComponent.`,
    { field },
  );
}

const undecodableBody = (): AppError =>
  new AppError(
    'invalid_body',
    'The request body could not be decoded as its Content-Encoding says; send it compressed that way, or drop the header.',
  );

const incompleteBody = (): AppError =>
  new AppError(
    'invalid_body',
    'The request body ended before its Content-Length, or was cut off; send the whole body.',
  );

/** The spec error for a protocol failure thrown before an endpoint ran; undefined for anything else. */
export function protocolError(err: unknown): AppError | undefined {
  const http = asHttpError(err);
  if (!http) return undefined;
  switch (http.type) {
    case 'entity.too.large':
      return payloadTooLarge(typeof http.limit === 'number' ? http.limit : 0);
    case 'encoding.unsupported':
      return unsupportedEncoding(typeof http.encoding === 'string' ? http.encoding : 'unknown');
    case 'charset.unsupported':
      return unsupportedCharset(typeof http.charset === 'string' ? http.charset : 'unknown');
    case 'entity.parse.failed':
      return new AppError('invalid_json', 'The request body is not valid JSON; send a JSON object.');
    case 'request.aborted':
    case 'request.size.invalid':
      return incompleteBody();
    default:
      break;
  }
  // zlib's own errors (Z_DATA_ERROR, ERR__ERROR_FORMAT_PADDING_2, ...: a string code and a numeric
  // errno) as body-parser passes them on with status 400.
  if (http.status === 400 && typeof http.code === 'string' && typeof http.errno === 'number') {
    return undecodableBody();
  }
  // The router's own decode failure, should a path reach it undetected by the edge guard.
  if (err instanceof URIError && http.status === 400) return badPathEncoding('path');
  return undefined;
}
