// The only way to make a blob key. Keys are minted by the server, never taken from a caller, and
// every one sits inside a tenant's namespace: `tenants/<tenantId>/<path>`. The rules are strict so
// that one key means the same object on every adapter (a file path on disk, an object key on S3)
// and no key can escape its tenant: no traversal, no absolute paths, no control characters.
import { AppError } from '../errors.ts';
import type { BlobKey, BlobPrefix } from './port.ts';

const ROOT = 'tenants';
const TENANT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Letters, digits, '.', '_' and '-'; not starting with '.' or '-' (no '..', no hidden files). */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
// Every filesystem we run on takes 255-byte names; S3 takes 1024-byte keys.
const MAX_SEGMENT_LENGTH = 200;
const MAX_KEY_LENGTH = 1024;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function invalidKey(reason: string): AppError {
  return new AppError('field_invalid', `Invalid blob key: ${reason}.`, { field: 'key' });
}

function checkTenant(tenantId: string): void {
  if (!TENANT_ID.test(tenantId)) {
    throw invalidKey(`tenant id ${JSON.stringify(tenantId)} must be 1 to 64 of A-Z, a-z, 0-9, '_', '-'`);
  }
}

/** Splits a relative path into its segments, refusing anything that could leave the namespace. */
function checkPath(path: string): string[] {
  if (path === '') throw invalidKey('the path inside the tenant is empty');
  if (CONTROL.test(path)) throw invalidKey('the path contains a control character');
  if (path.includes('\\')) throw invalidKey(`${JSON.stringify(path)} contains a backslash`);
  if (path.startsWith('/')) {
    throw invalidKey(`${JSON.stringify(path)} is an absolute path; paths are relative to the tenant`);
  }
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '')
      throw invalidKey(`${JSON.stringify(path)} has an empty segment ('//' or a trailing '/')`);
    if (segment === '.' || segment === '..') {
      throw invalidKey(`${JSON.stringify(path)} contains '${segment}' (path traversal)`);
    }
    if (segment.length > MAX_SEGMENT_LENGTH) {
      throw invalidKey(`a segment is longer than ${MAX_SEGMENT_LENGTH} characters`);
    }
    if (!SEGMENT.test(segment)) {
      throw invalidKey(
        `segment ${JSON.stringify(segment)} may only hold A-Z, a-z, 0-9, '.', '_' and '-', and must not start with '.' or '-'`,
      );
    }
  }
  return segments;
}

/**
 * The key of one object of a tenant. Parts are joined with '/', so `blobKey(t, 'captures', id,
 * 'frames/0001.jpg')` and `blobKey(t, 'captures/' + id + '/frames/0001.jpg')` are the same key.
 */
export function blobKey(tenantId: string, ...parts: string[]): BlobKey {
  checkTenant(tenantId);
  const path = parts.join('/');
  checkPath(path);
  const key = `${ROOT}/${tenantId}/${path}`;
  if (key.length > MAX_KEY_LENGTH) throw invalidKey(`the key is longer than ${MAX_KEY_LENGTH} characters`);
  return key as BlobKey;
}

/** A prefix for list(): the tenant's whole namespace, or a folder of whole segments inside it. */
export function blobPrefix(tenantId: string, ...parts: string[]): BlobPrefix {
  checkTenant(tenantId);
  const path = parts.join('/');
  if (path !== '') checkPath(path);
  return `${ROOT}/${tenantId}/${path === '' ? '' : `${path}/`}` as BlobPrefix;
}

/**
 * Re-validates a key read back from storage or a URL. Throws `field_invalid` unless it is exactly
 * what blobKey() would have built.
 */
export function parseBlobKey(raw: string): BlobKey {
  const [root, tenantId, ...rest] = raw.split('/');
  if (root !== ROOT || tenantId === undefined || rest.length === 0) {
    throw invalidKey(`${JSON.stringify(raw.slice(0, 100))} does not start with '${ROOT}/<tenantId>/'`);
  }
  return blobKey(tenantId, rest.join('/'));
}

/** The tenant whose namespace holds the key. */
export function blobKeyTenant(key: BlobKey): string {
  return key.split('/', 2)[1] as string;
}

/** Whether the key lies under the prefix (prefixes end in '/', so `a/b/` never matches `a/bc`). */
export function isUnderPrefix(key: BlobKey, prefix: BlobPrefix): boolean {
  return key.startsWith(prefix);
}
