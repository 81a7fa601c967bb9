// One presigned PUT per frame of a session still uploading, pinned to the frame's key, declared
// content type and declared size: either store refuses a body of another length (S3 through the
// signed Content-Length, the embedded store through its signed grant), and a second write once the
// bytes are in (the embedded store always; S3 where it honours the signed If-None-Match: *).
import { CAPTURE_SESSION_MACHINE } from '@fieldops/contracts';
import type { BlobKey } from '@fieldops/kit/blobs';
import type { capture } from '@fieldops/proto';
import type { CaptureDeps } from '../deps.ts';

export async function uploadUrls(
  deps: CaptureDeps,
  session: capture.CaptureSession,
): Promise<capture.UploadUrl[]> {
  if (session.status !== CAPTURE_SESSION_MACHINE.initial) return [];
  return Promise.all(
    session.frames.map(async (frame) => {
      const put = await deps.blobs.presignPut(frame.key as BlobKey, {
        contentType: frame.contentType,
        contentLength: Number(frame.declaredSize),
      });
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
