// The embedded blob store (the default of `npm start`): objects are files under
// `<FIELDOPS_DATA_DIR>/blobs/data/<key>`, each with its head (content type, size, hash) beside it
// under `meta/<key>`. Clients PUT and GET through HMAC-signed short-lived URLs that the platform's
// HTTP server answers (embedded-http.ts); the signing secret is made once and kept in the dir.
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors.ts';
import { attachmentDisposition, checkContentType, checkDownloadName } from './http-values.ts';
import { parseBlobKey } from './key.ts';
import { meteredBody } from './metered-body.ts';
import {
  checkContentLength,
  checkExpiry,
  checkListLimit,
  checkMaxBytes,
  GET_URL_DEFAULT_SECONDS,
  MAX_OBJECT_BYTES,
  PUT_URL_DEFAULT_SECONDS,
  putHeaders,
} from './limits.ts';
import type {
  BlobHead,
  BlobKey,
  BlobPage,
  BlobPrefix,
  BlobRead,
  BlobStore,
  ByteRange,
  ListOptions,
  PresignedRequest,
  PresignGetOptions,
  PresignPutOptions,
  PutOptions,
} from './port.ts';
import { grantPath, UrlRefused, verifyGrant, type UrlGrant } from './url-signature.ts';
import { statInBatches } from './batched-stat.ts';
import { makePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, tightenTree } from '../files/private-files.ts';

export interface EmbeddedBlobStoreOptions {
  /** The store's directory, e.g. `<FIELDOPS_DATA_DIR>/blobs`; created when missing. */
  dir: string;
  /**
   * Where the platform serves the blob route, e.g. `http://127.0.0.1:8080/blobs`. May be set
   * later (setBaseUrl), once the HTTP server knows its port.
   */
  baseUrl?: string;
}

export interface EmbeddedBlobStore extends BlobStore {
  readonly adapter: 'embedded';
  /** The absolute URL prefix of the blob route, once the HTTP server listens. */
  setBaseUrl(url: string): void;
  /** Checks a request against its presigned URL (signature, expiry, method); throws UrlRefused. */
  verify(method: string, rawPath: string, query: URLSearchParams): UrlGrant;
  /**
   * Stores the body of a presigned PUT, once: refuses (UrlRefused 'written') while another upload
   * to the key streams or once bytes are stored under it, and refuses a body of another length
   * than the grant's (BlobTooLarge past it, UrlRefused 'length' short of it), storing nothing.
   */
  putOnce(grant: UrlGrant, body: Readable): Promise<BlobHead>;
}

export { BlobTooLarge } from './metered-body.ts';

export async function openEmbeddedBlobStore(options: EmbeddedBlobStoreOptions): Promise<EmbeddedBlobStore> {
  const dir = path.resolve(options.dir);
  const dataDir = path.join(dir, 'data');
  const metaDir = path.join(dir, 'meta');
  const tmpDir = path.join(dir, 'tmp');
  // Tenants' files and the URL-signing key: folders 0700 and files 0600, tightened at open too.
  await makePrivateDir(dir);
  await Promise.all([dataDir, metaDir, tmpDir].map((d) => makePrivateDir(d)));
  await tightenTree(dir);
  const secret = await loadOrCreateSecret(path.join(dir, 'signing.key'));
  let baseUrl = options.baseUrl;
  /** Keys a presigned PUT is streaming into: a second upload of the same URL is refused meanwhile. */
  const uploading = new Set<string>();

  const dataPath = (key: BlobKey) => path.join(dataDir, ...key.split('/'));
  const metaPath = (key: BlobKey) => path.join(metaDir, ...key.split('/'));

  function presigned(grant: UrlGrant, headers: Record<string, string>): PresignedRequest {
    if (baseUrl === undefined) {
      throw new AppError('unavailable', 'The blob route is not served yet; retry in a moment.');
    }
    return {
      method: grant.method,
      url: `${baseUrl}${grantPath(secret, grant)}`,
      headers,
      expiresAt: new Date(grant.expires * 1000).toISOString(),
    };
  }

  const store: EmbeddedBlobStore = {
    adapter: 'embedded',
    setBaseUrl(url) {
      baseUrl = url.replace(/\/+$/, '');
    },
    verify: (method, rawPath, query) =>
      verifyGrant(secret, method, rawPath, query, Math.floor(Date.now() / 1000)),

    async presignPut(key, opts: PresignPutOptions) {
      const contentType = checkContentType(opts.contentType);
      const contentLength = checkContentLength(opts.contentLength);
      const seconds = checkExpiry(opts.expiresInSeconds, PUT_URL_DEFAULT_SECONDS);
      const grant: UrlGrant = {
        method: 'PUT',
        key: parseBlobKey(key),
        expires: Math.floor(Date.now() / 1000) + seconds,
        contentType,
        contentLength,
      };
      return presigned(grant, putHeaders(contentType, contentLength));
    },

    async putOnce(grant, body) {
      const key = grant.key;
      const written = () =>
        new UrlRefused(
          'written',
          'Bytes are already stored under this URL, and an upload URL writes once. Finalize the session, or abort it and presign a new one.',
        );
      if (uploading.has(key) || (await store.head(key)) !== null) throw written();
      uploading.add(key);
      try {
        const length = grant.contentLength ?? MAX_OBJECT_BYTES;
        const head = await store.put(key, body, { contentType: grant.contentType ?? '', maxBytes: length });
        if (grant.contentLength !== undefined && head.size !== grant.contentLength) {
          await store.delete(key);
          throw new UrlRefused(
            'length',
            `The body has ${head.size} bytes, but this URL accepts exactly ${grant.contentLength} (the size declared at presign). Send the whole file.`,
          );
        }
        return head;
      } finally {
        uploading.delete(key);
      }
    },

    async presignGet(key, opts: PresignGetOptions = {}) {
      const seconds = checkExpiry(opts.expiresInSeconds, GET_URL_DEFAULT_SECONDS);
      const grant: UrlGrant = {
        method: 'GET',
        key: parseBlobKey(key),
        expires: Math.floor(Date.now() / 1000) + seconds,
        ...(opts.downloadName !== undefined ? { downloadName: checkDownloadName(opts.downloadName) } : {}),
      };
      return presigned(grant, {});
    },

    head: (key) => readHead(metaPath(parseBlobKey(key))),

    stat: (keys) => statInBatches(keys, (key) => store.head(key)),

    async list(prefix: BlobPrefix, opts: ListOptions = {}): Promise<BlobPage> {
      const limit = checkListLimit(opts.limit);
      const after = opts.cursor ? Buffer.from(opts.cursor, 'base64url').toString('utf8') : '';
      const keys = (await walk(metaDir, prefix)).filter((key) => key > after).sort(byteOrder);
      const page = keys.slice(0, limit);
      const heads = await Promise.all(page.map((key) => readHead(metaPath(key as BlobKey))));
      const items = heads.filter((head): head is BlobHead => head !== null).map(summary);
      const more = keys.length > limit;
      return { items, nextCursor: more ? Buffer.from(page.at(-1) ?? '').toString('base64url') : null };
    },

    async delete(key) {
      const checked = parseBlobKey(key);
      // The head goes first: an object without a head is absent, so a crash in between is harmless.
      await fs.rm(metaPath(checked), { force: true });
      await fs.rm(dataPath(checked), { force: true });
    },

    async put(key, body, opts: PutOptions) {
      const checked = parseBlobKey(key);
      const contentType = checkContentType(opts.contentType);
      const limit = checkMaxBytes(opts.maxBytes) ?? MAX_OBJECT_BYTES;
      const tmp = path.join(tmpDir, randomUUID());
      const metered = meteredBody(body, limit);
      try {
        await pipeline(metered.stream, createWriteStream(tmp, { mode: PRIVATE_FILE_MODE }));
        const digest = metered.sha256();
        const head: BlobHead = {
          key: checked,
          size: metered.size(),
          contentType,
          etag: digest.toString('hex').slice(0, 32),
          sha256: digest.toString('base64'),
          lastModified: new Date().toISOString(),
        };
        await fs.mkdir(path.dirname(dataPath(checked)), { recursive: true, mode: PRIVATE_DIR_MODE });
        await fs.mkdir(path.dirname(metaPath(checked)), { recursive: true, mode: PRIVATE_DIR_MODE });
        await fs.rename(tmp, dataPath(checked));
        await writeAtomically(path.join(tmpDir, randomUUID()), metaPath(checked), JSON.stringify(head));
        return head;
      } finally {
        await fs.rm(tmp, { force: true });
      }
    },

    async get(key, opts: { range?: ByteRange } = {}): Promise<BlobRead | null> {
      const checked = parseBlobKey(key);
      const head = await store.head(checked);
      if (!head) return null;
      const range = opts.range ? checkRange(opts.range, head.size) : undefined;
      const body = createReadStream(dataPath(checked), range ?? {});
      return { head, body, ...(range ? { range } : {}) };
    },

    async close() {},
  };
  return store;
}

/** The `Content-Disposition` a GET grant asks for. */
export const dispositionOf = (grant: UrlGrant): string | undefined =>
  grant.downloadName === undefined ? undefined : attachmentDisposition(grant.downloadName);

function checkRange(range: ByteRange, size: number): { start: number; end: number } {
  const end = Math.min(range.end ?? size - 1, size - 1);
  if (!Number.isSafeInteger(range.start) || range.start < 0 || range.start >= size || end < range.start) {
    throw new AppError('field_invalid', `The range starts past the end of the ${size}-byte object.`, {
      field: 'range',
    });
  }
  return { start: range.start, end };
}

async function readHead(file: string): Promise<BlobHead | null> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as BlobHead;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function writeAtomically(tmp: string, file: string, text: string): Promise<void> {
  await fs.writeFile(tmp, text, { mode: PRIVATE_FILE_MODE });
  await fs.rename(tmp, file);
}

/** Every key under the prefix (the meta tree mirrors the keys). */
async function walk(metaDir: string, prefix: BlobPrefix): Promise<string[]> {
  const start = path.join(metaDir, ...prefix.split('/').filter(Boolean));
  const keys: string[] = [];
  async function visit(dir: string, keyPrefix: string): Promise<void> {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const key = `${keyPrefix}${entry.name}`;
      if (entry.isDirectory()) await visit(path.join(dir, entry.name), `${key}/`);
      else keys.push(key);
    }
  }
  await visit(start, prefix);
  return keys;
}

const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

const summary = (head: BlobHead) => ({
  key: head.key,
  size: head.size,
  etag: head.etag,
  lastModified: head.lastModified,
});

async function loadOrCreateSecret(file: string): Promise<Buffer> {
  try {
    await fs.writeFile(file, randomBytes(32), { flag: 'wx', mode: PRIVATE_FILE_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return fs.readFile(file);
}
