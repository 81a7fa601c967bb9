// @fieldops/kit/blobs: the blob store port, blob keys, the embedded store and its HTTP handler.
// Opening the configured store (embedded or S3) is @fieldops/kit/adapters.
export { blobByteSource } from './byte-source.ts';
export type { BlobByteSource } from './byte-source.ts';
export { openEmbeddedBlobStore } from './embedded.ts';
export type { EmbeddedBlobStore } from './embedded.ts';
export { handleBlobRequest } from './embedded-http.ts';
export { checkContentType, sameContentType } from './http-values.ts';
export { blobKey, blobKeyTenant, blobPrefix, parseBlobKey } from './key.ts';
export type { BlobHead, BlobKey, BlobStore } from './port.ts';
