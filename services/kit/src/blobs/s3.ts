// The S3 blob store (production): any S3-compatible object storage, through the AWS SDK v3.
// Presigned PUTs sign the Content-Type and Content-Length headers, so S3 itself refuses an upload
// with another type or another length than the declared one (403 SignatureDoesNotMatch); an expired
// or altered URL is refused by S3's own signature check. They also sign `If-None-Match: *`, so AWS
// S3 refuses to write a key twice (412); S3Proxy 2.6.0 ignores that header (docs/decisions.md).
//
// Checksums (S3_CHECKSUMS): on AWS the SDK's default flexible checksums (`when_supported`) give
// end-to-end integrity to the service's own uploads and downloads. S3-compatible stores that predate
// them (S3Proxy, older MinIO and Ceph) answer 501 NotImplemented to their headers, so there the
// store sends checksums only when an operation requires one (`when_required`). Presigned URLs are
// always made without them: the SDK would otherwise sign a checksum of an empty body into every PUT
// URL, which a browser's upload of the real bytes can never match.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import { AppError } from '../errors.ts';
import { BlobTooLarge, meteredBody } from './metered-body.ts';
import { attachmentDisposition, checkContentType, checkDownloadName } from './http-values.ts';
import { parseBlobKey } from './key.ts';
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
import type { BlobStore, PresignedRequest } from './port.ts';
import { statInBatches } from './batched-stat.ts';
import { checksumsOf, type S3BlobStoreOptions } from './s3-options.ts';

/** What a presigned PUT pins: the declared type and length, and a write only where nothing is. */
const SIGNED_PUT_HEADERS = new Set(['content-type', 'content-length', 'if-none-match']);

const isMissing = (error: unknown): boolean =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey');

function unavailable(error: unknown): AppError {
  return new AppError('unavailable', 'The object store did not answer; retry shortly.', {}, { cause: error });
}

export function openS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const base = {
    region: options.region,
    forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  };
  const withChecksums = checksumsOf(options) === 'when_supported';
  const mode = withChecksums ? 'WHEN_SUPPORTED' : 'WHEN_REQUIRED';
  const client = new S3Client({
    ...base,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    requestChecksumCalculation: mode,
    responseChecksumValidation: mode,
  });
  // Presigned URLs are signed for the endpoint their users reach (SigV4 signs the host, so a URL
  // cannot be moved to another host afterwards), and never carry a checksum: the client that
  // uploads through them sends none. This client only signs; it never sends a request.
  const publicEndpoint = options.publicEndpoint ?? options.endpoint;
  const presigner = new S3Client({
    ...base,
    ...(publicEndpoint ? { endpoint: publicEndpoint } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;

  async function send<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw unavailable(error);
    }
  }

  const presigned = (method: 'PUT' | 'GET', url: string, headers: Record<string, string>, seconds: number) =>
    ({
      method,
      url,
      headers,
      expiresAt: new Date(Date.now() + seconds * 1000).toISOString(),
    }) satisfies PresignedRequest;

  const store: BlobStore = {
    adapter: 's3',

    async presignPut(key, opts) {
      const ContentType = checkContentType(opts.contentType);
      const ContentLength = checkContentLength(opts.contentLength);
      const seconds = checkExpiry(opts.expiresInSeconds, PUT_URL_DEFAULT_SECONDS);
      const command = new PutObjectCommand({
        Bucket,
        Key: parseBlobKey(key),
        ContentType,
        ContentLength,
        IfNoneMatch: '*',
      });
      const url = await send(() =>
        getSignedUrl(presigner, command, { expiresIn: seconds, signableHeaders: SIGNED_PUT_HEADERS }),
      );
      return presigned('PUT', url, putHeaders(ContentType, ContentLength), seconds);
    },

    async presignGet(key, opts = {}) {
      const seconds = checkExpiry(opts.expiresInSeconds, GET_URL_DEFAULT_SECONDS);
      const name = opts.downloadName === undefined ? undefined : checkDownloadName(opts.downloadName);
      const command = new GetObjectCommand({
        Bucket,
        Key: parseBlobKey(key),
        ...(name ? { ResponseContentDisposition: attachmentDisposition(name) } : {}),
      });
      const url = await send(() => getSignedUrl(presigner, command, { expiresIn: seconds }));
      return presigned('GET', url, {}, seconds);
    },

    async head(key) {
      const Key = parseBlobKey(key);
      try {
        // Asking for the stored checksum is itself a checksum header (501 on older stores).
        const found = await client.send(
          new HeadObjectCommand({
            Bucket,
            Key,
            ...(withChecksums ? { ChecksumMode: 'ENABLED' as const } : {}),
          }),
        );
        return {
          key: Key,
          size: found.ContentLength ?? 0,
          contentType: found.ContentType ?? 'application/octet-stream',
          etag: (found.ETag ?? '').replaceAll('"', ''),
          ...(found.ChecksumSHA256 && !found.ChecksumSHA256.includes('-')
            ? { sha256: found.ChecksumSHA256 }
            : {}),
          lastModified: (found.LastModified ?? new Date()).toISOString(),
        };
      } catch (error) {
        if (isMissing(error)) return null;
        throw unavailable(error);
      }
    },

    stat: (keys) => statInBatches(keys, (key) => store.head(key)),

    async list(prefix, opts = {}) {
      const MaxKeys = checkListLimit(opts.limit);
      const page = await send(() =>
        client.send(
          new ListObjectsV2Command({
            Bucket,
            Prefix: prefix,
            MaxKeys,
            ...(opts.cursor ? { ContinuationToken: opts.cursor } : {}),
          }),
        ),
      );
      return {
        // A key ending in '/' is a folder marker, never an object of this store (blobKey refuses
        // a trailing '/'): S3Proxy's filesystem provider lists every folder so, and consoles
        // create them on AWS. They are not blobs; validating one would fail the whole listing.
        items: (page.Contents ?? []).filter(isObjectKey).map((object) => ({
          key: parseBlobKey(object.Key ?? ''),
          size: object.Size ?? 0,
          etag: (object.ETag ?? '').replaceAll('"', ''),
          lastModified: (object.LastModified ?? new Date()).toISOString(),
        })),
        nextCursor: page.IsTruncated ? (page.NextContinuationToken ?? null) : null,
      };
    },

    async delete(key) {
      const Key = parseBlobKey(key);
      await send(() => client.send(new DeleteObjectCommand({ Bucket, Key })));
    },

    async put(key, body, opts) {
      const Key = parseBlobKey(key);
      const ContentType = checkContentType(opts.contentType);
      const limit = checkMaxBytes(opts.maxBytes) ?? MAX_OBJECT_BYTES;
      const metered = meteredBody(body, limit);
      try {
        await new Upload({ client, params: { Bucket, Key, Body: metered.stream, ContentType } }).done();
      } catch (error) {
        if (error instanceof BlobTooLarge) throw error;
        throw unavailable(error);
      }
      const head = await store.head(Key);
      if (!head) throw unavailable(new Error(`The object ${Key} is absent right after its upload.`));
      return { ...head, sha256: metered.sha256().toString('base64') };
    },

    async get(key, opts = {}) {
      const Key = parseBlobKey(key);
      const head = await store.head(Key);
      if (!head) return null;
      const range = opts.range;
      if (
        range &&
        (range.start < 0 || range.start >= head.size || (range.end ?? range.start) < range.start)
      ) {
        throw new AppError(
          'field_invalid',
          `The range starts past the end of the ${head.size}-byte object.`,
          {
            field: 'range',
          },
        );
      }
      const end = range ? Math.min(range.end ?? head.size - 1, head.size - 1) : undefined;
      try {
        const found = await client.send(
          new GetObjectCommand({ Bucket, Key, ...(range ? { Range: `bytes=${range.start}-${end}` } : {}) }),
        );
        return {
          head,
          body: found.Body as Readable,
          ...(range && end !== undefined ? { range: { start: range.start, end } } : {}),
        };
      } catch (error) {
        if (isMissing(error)) return null;
        throw unavailable(error);
      }
    },

    async close() {
      client.destroy();
      presigner.destroy();
    },
  };
  return store;
}

const isObjectKey = (object: { Key?: string }): boolean => !(object.Key ?? '').endsWith('/');
