// Serves the embedded blob store's presigned URLs under /blobs: PUT uploads and GET downloads,
// each checked against its HMAC-signed URL (services/kit/src/blobs/embedded-http.ts). Mounted only
// when the platform runs on the embedded store; with S3 clients talk to the bucket directly. No
// bearer token here: the signed URL is the credential, as with S3.
import { handleBlobRequest, type EmbeddedBlobStore } from '@fieldops/kit/blobs';
import type { Request, RequestHandler, Response } from 'express';

export const BLOB_ROUTE = '/blobs';

export function createBlobRouter(store: EmbeddedBlobStore): RequestHandler {
  return (req: Request, res: Response) => {
    // req.url is relative to the mount point: `/<key>?<grant>`.
    void handleBlobRequest(store, req, res, req.url);
  };
}
