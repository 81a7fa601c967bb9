// @fieldops/kit/blobs: the blob store port, blob keys, the embedded store and its HTTP handler.
// Opening the configured store (embedded or S3) is @fieldops/kit/adapters.
export { openEmbeddedBlobStore } from './embedded.js';
export type { EmbeddedBlobStore } from './embedded.js';
export { handleBlobRequest } from './embedded-http.js';
export { checkContentType, sameContentType } from './http-values.js';
export { blobKey, blobKeyTenant, blobPrefix, parseBlobKey } from './key.js';
export type { BlobHead, BlobKey, BlobStore } from './port.js';
