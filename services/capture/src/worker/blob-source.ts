// A frame of the job as the measurements engine's ByteSource: re-readable from the start, streamed.
import { blobByteSource, type BlobByteSource, type BlobStore } from '@fieldops/kit/blobs';
import type { EngineFrame } from './engine.port.ts';

export function blobSource(blobs: BlobStore, frame: EngineFrame): BlobByteSource {
  return blobByteSource(blobs, frame.key, frame, () => new Error(`${frame.key} is no longer stored.`));
}
