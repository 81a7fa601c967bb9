// One presigned PUT per frame of a session still uploading, pinned to the frame's key and
// declared content type, with the declared size (advisory) as the embedded store's ceiling.
import type { BlobKey } from '@fieldops/kit/blobs/port';
import type { capture } from '@fieldops/proto';
import type { CaptureDeps } from '../deps.js';

export async function uploadUrls(
  deps: CaptureDeps,
  session: capture.CaptureSession,
): Promise<capture.UploadUrl[]> {
  if (session.status !== 'uploading') return [];
  return Promise.all(
    session.frames.map(async (frame) => {
      const put = await deps.blobs.presignPut(frame.key as BlobKey, { contentType: frame.contentType });
      return {
        index: frame.index,
        key: frame.key,
        method: put.method,
        url: put.url,
        headers: put.headers,
        expiresAt: put.expiresAt,
      };
    }),
  );
}
