// The embedded store's presigned URLs: an HMAC-SHA256 over everything the URL grants (method, key,
// expiry, pinned content type, exact length, download name), so changing any of them, or the
// expiry, breaks the signature. The secret never leaves the process that serves the URLs.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors.ts';
import { parseBlobKey } from './key.ts';
import type { BlobKey } from './port.ts';

/** What one presigned URL allows. */
export interface UrlGrant {
  method: 'PUT' | 'GET';
  key: BlobKey;
  /** Unix seconds after which the URL is refused. */
  expires: number;
  contentType?: string;
  /** A PUT's exact body length (the declared size). */
  contentLength?: number;
  downloadName?: string;
}

const Q = {
  method: 'X-Fo-Method',
  expires: 'X-Fo-Expires',
  contentType: 'X-Fo-Content-Type',
  contentLength: 'X-Fo-Content-Length',
  downloadName: 'X-Fo-Download-Name',
  signature: 'X-Fo-Signature',
} as const;

/** Fields separated by a byte no field may contain (keys, media types and names exclude controls). */
function canonical(grant: UrlGrant): string {
  return [
    grant.method,
    grant.key,
    String(grant.expires),
    grant.contentType ?? '',
    grant.contentLength === undefined ? '' : String(grant.contentLength),
    grant.downloadName ?? '',
  ].join('\n');
}

export function signGrant(secret: Buffer, grant: UrlGrant): string {
  return createHmac('sha256', secret).update(canonical(grant)).digest('base64url');
}

/** `/<key>?...` relative to the blob route (each key segment is URL-safe by construction). */
export function grantPath(secret: Buffer, grant: UrlGrant): string {
  const query = new URLSearchParams({ [Q.method]: grant.method, [Q.expires]: String(grant.expires) });
  if (grant.contentType !== undefined) query.set(Q.contentType, grant.contentType);
  if (grant.contentLength !== undefined) query.set(Q.contentLength, String(grant.contentLength));
  if (grant.downloadName !== undefined) query.set(Q.downloadName, grant.downloadName);
  query.set(Q.signature, signGrant(secret, grant));
  return `/${grant.key}?${query.toString()}`;
}

/** Why a URL was refused: all are 403 (as S3 answers), each with a sentence saying what to do. */
export class UrlRefused extends Error {
  readonly reason: 'signature' | 'expired' | 'method' | 'content_type' | 'length' | 'written';
  constructor(
    reason: 'signature' | 'expired' | 'method' | 'content_type' | 'length' | 'written',
    message: string,
  ) {
    super(message);
    this.reason = reason;
    this.name = 'UrlRefused';
  }
}

const refusedSignature = () =>
  new UrlRefused(
    'signature',
    'The URL signature does not match: it was altered or not issued by this platform. Ask the API for a new URL.',
  );

/**
 * Checks a request against its URL: a valid signature over exactly what the URL states, not
 * expired, the method it was issued for. Returns the grant, whose key is then safe to use.
 */
export function verifyGrant(
  secret: Buffer,
  method: string,
  rawPath: string,
  query: URLSearchParams,
  nowSeconds: number,
): UrlGrant {
  let key: BlobKey;
  try {
    key = parseBlobKey(decodeURIComponent(rawPath.replace(/^\/+/, '')));
  } catch (error) {
    if (error instanceof AppError || error instanceof URIError) throw refusedSignature();
    throw error;
  }
  const grantedMethod = query.get(Q.method);
  const expires = Number(query.get(Q.expires));
  const lengthText = query.get(Q.contentLength);
  if ((grantedMethod !== 'PUT' && grantedMethod !== 'GET') || !Number.isSafeInteger(expires)) {
    throw refusedSignature();
  }
  const grant: UrlGrant = {
    method: grantedMethod,
    key,
    expires,
    ...(query.has(Q.contentType) ? { contentType: query.get(Q.contentType) ?? '' } : {}),
    ...(lengthText !== null ? { contentLength: Number(lengthText) } : {}),
    ...(query.has(Q.downloadName) ? { downloadName: query.get(Q.downloadName) ?? '' } : {}),
  };
  const expected = Buffer.from(signGrant(secret, grant));
  const sent = Buffer.from(query.get(Q.signature) ?? '');
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) throw refusedSignature();
  if (nowSeconds > expires) {
    throw new UrlRefused(
      'expired',
      'This URL has expired; presigned URLs are short-lived. Ask the API for a new one.',
    );
  }
  const asked = method === 'HEAD' ? 'GET' : method;
  if (asked !== grant.method) {
    throw new UrlRefused('method', `This URL was issued for ${grant.method}, not ${method}.`);
  }
  return grant;
}
