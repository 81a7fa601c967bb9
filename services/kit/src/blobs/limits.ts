// The numbers both adapters apply, and the checks of the values callers choose within them. Kept
// in one place so the embedded store and S3 behave alike and the docs can cite one file.
import { AppError } from '../errors.ts';

/** An upload URL lives long enough to start a large frame over a site connection, no longer. */
export const PUT_URL_DEFAULT_SECONDS = 15 * 60;
/** A download link is fetched right away; a fresh one is one API call away. */
export const GET_URL_DEFAULT_SECONDS = 5 * 60;
/** No presigned URL outlives an hour, whatever the caller asks for. */
export const URL_MAX_SECONDS = 60 * 60;
/** S3's own ceiling for a single PUT; the embedded store applies it when no maxBytes is pinned. */
export const MAX_OBJECT_BYTES = 5 * 1024 ** 3;
/** S3's page size ceiling for ListObjectsV2. */
export const LIST_MAX_LIMIT = 1000;

export function checkExpiry(requested: number | undefined, fallback: number): number {
  const seconds = requested ?? fallback;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > URL_MAX_SECONDS) {
    throw new AppError(
      'field_invalid',
      `expiresInSeconds must be a whole number from 1 to ${URL_MAX_SECONDS}; presigned URLs are short-lived.`,
      { field: 'expiresInSeconds' },
    );
  }
  return seconds;
}

export function checkMaxBytes(maxBytes: number | undefined): number | undefined {
  if (maxBytes === undefined) return undefined;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0 || maxBytes > MAX_OBJECT_BYTES) {
    throw new AppError('field_invalid', `maxBytes must be a whole number from 0 to ${MAX_OBJECT_BYTES}.`, {
      field: 'maxBytes',
    });
  }
  return maxBytes;
}

/** The exact length a presigned PUT is signed for: the size the client declared. */
export function checkContentLength(length: number): number {
  if (!Number.isSafeInteger(length) || length < 0 || length > MAX_OBJECT_BYTES) {
    throw new AppError(
      'field_invalid',
      `contentLength must be a whole number of bytes from 0 to ${MAX_OBJECT_BYTES} (the declared size).`,
      { field: 'contentLength' },
    );
  }
  return length;
}

/** The headers every presigned PUT asks the client to send, on either store. */
export function putHeaders(contentType: string, contentLength: number): Record<string, string> {
  return { 'content-type': contentType, 'content-length': String(contentLength), 'if-none-match': '*' };
}

export function checkListLimit(limit: number | undefined): number {
  const value = limit ?? LIST_MAX_LIMIT;
  if (!Number.isInteger(value) || value < 1 || value > LIST_MAX_LIMIT) {
    throw new AppError('field_invalid', `limit must be a whole number from 1 to ${LIST_MAX_LIMIT}.`, {
      field: 'limit',
    });
  }
  return value;
}
