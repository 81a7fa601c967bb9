// The blob store port: the bytes of captures, artifacts and exports. Clients move bytes straight to
// and from the store through short-lived presigned URLs, so large uploads never pass through a
// service; services read and write blobs as streams. Adapters: S3-compatible object storage
// (S3_BUCKET) and an embedded default (files under FIELDOPS_DATA_DIR/blobs, served by the platform
// through HMAC-signed URLs). One contract suite (test/contracts/blobs.contract.ts) runs against both.
//
// Keys are minted by the server with the key builder (key.ts) and always sit inside one tenant's
// namespace: the tenant is part of every key, so isolation is in the signature of every call.
import type { Readable } from 'node:stream';

declare const blobKeyBrand: unique symbol;
declare const blobPrefixBrand: unique symbol;

/** `tenants/<tenantId>/<path>`, made only by blobKey()/parseBlobKey() (key.ts). */
export type BlobKey = string & { readonly [blobKeyBrand]: true };
/** `tenants/<tenantId>/[<path>/]`: whole segments, always ending in '/', made only by blobPrefix(). */
export type BlobPrefix = string & { readonly [blobPrefixBrand]: true };

/** What the store knows about one stored object. */
export interface BlobHead {
  key: BlobKey;
  /** Bytes actually stored, measured by the store: never a size a client declared. */
  size: number;
  contentType: string;
  /** Opaque, without quotes; changes whenever the bytes change. */
  etag: string;
  /** Base64 SHA-256 of the bytes, when the store knows it (the embedded store always does). */
  sha256?: string;
  /** ISO 8601 UTC. */
  lastModified: string;
}

/** A list entry. S3 listings carry no content type, so neither does the port's. */
export type BlobSummary = Omit<BlobHead, 'contentType' | 'sha256'>;

export interface PresignPutOptions {
  /** The only Content-Type the upload will be accepted with (the client must send exactly this). */
  contentType: string;
  /**
   * The exact length of the body, in bytes: the size the client declared. S3 signs it into the URL
   * (`content-length` is a signed header, so S3 refuses any other length with 403); the embedded
   * store signs it into its grant and refuses any other Content-Length the same way. 0 to
   * MAX_OBJECT_BYTES.
   */
  contentLength: number;
  /** Defaults to PUT_URL_DEFAULT_SECONDS; at most URL_MAX_SECONDS. */
  expiresInSeconds?: number;
}

export interface PresignGetOptions {
  /** Defaults to GET_URL_DEFAULT_SECONDS; at most URL_MAX_SECONDS. */
  expiresInSeconds?: number;
  /** Served as `Content-Disposition: attachment` with this file name. */
  downloadName?: string;
}

/** A request the client makes itself, straight to the store. */
export interface PresignedRequest {
  method: 'PUT' | 'GET';
  url: string;
  /** Headers the request must carry with exactly these values (the pinned Content-Type of a PUT). */
  headers: Record<string, string>;
  /** ISO 8601 UTC; the URL is refused after this instant. */
  expiresAt: string;
}

export interface PutOptions {
  contentType: string;
  /** Refuses (and stores nothing) when the body turns out to be longer. */
  maxBytes?: number;
}

/** Inclusive byte offsets, as in an HTTP Range header; `end` defaults to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface BlobRead {
  /** The head of the whole object (its size is the full size, not the range's). */
  head: BlobHead;
  body: Readable;
  /** The inclusive range actually served, when one was asked for. */
  range?: { start: number; end: number };
}

export interface ListOptions {
  /** 1 to LIST_MAX_LIMIT, default LIST_MAX_LIMIT. */
  limit?: number;
  /** Opaque, from a previous page's nextCursor. */
  cursor?: string;
}

export interface BlobPage {
  /** In byte order of the key, as S3 lists. */
  items: BlobSummary[];
  nextCursor: string | null;
}

export interface BlobStore {
  /** Which adapter this is, for logs and /healthz. */
  readonly adapter: 'embedded' | 's3';
  /**
   * A URL the client PUTs the bytes to, pinned to one key, one content type and one exact length,
   * and meant to be written once: the embedded store refuses a second write (409 conflict); on S3
   * the URL signs `If-None-Match: *`, which AWS S3 honours (412) and S3Proxy ignores (see
   * docs/decisions.md, "Uploads kept to the manifest"). The client sends every header of
   * `headers` with exactly its value.
   */
  presignPut(key: BlobKey, options: PresignPutOptions): Promise<PresignedRequest>;
  /** A URL the client GETs the bytes from (Range requests are honoured). */
  presignGet(key: BlobKey, options?: PresignGetOptions): Promise<PresignedRequest>;
  /** The stored object's head, or null when nothing is stored under the key. */
  head(key: BlobKey): Promise<BlobHead | null>;
  /** head() of many keys at once (bounded concurrency), e.g. to meter a whole upload at finalize. */
  stat(keys: readonly BlobKey[]): Promise<Map<BlobKey, BlobHead | null>>;
  /** Objects whose key starts with the prefix, in key order, a page at a time. */
  list(prefix: BlobPrefix, options?: ListOptions): Promise<BlobPage>;
  /** Removes the object; removing one that is absent is not an error. */
  delete(key: BlobKey): Promise<void>;
  /** Stores a body from a service (exports, engine outputs), replacing any object under the key. */
  put(key: BlobKey, body: Readable | Uint8Array, options: PutOptions): Promise<BlobHead>;
  /** Streams a stored object, or null when absent. A range past the end is `field_invalid`. */
  get(key: BlobKey, options?: { range?: ByteRange }): Promise<BlobRead | null>;
  close(): Promise<void>;
}
