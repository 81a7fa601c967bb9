// A stored blob as a stream source that can start anywhere: the shape the measurement engine's
// readers take (ByteSource). Each open() is its own read; a reader that stops early returns the
// iterator, and the for-await below then destroys the response body, so its pooled socket (S3) or
// file handle (embedded) is let go rather than held until the pool runs dry.
import type { BlobKey, BlobStore } from './port.ts';

export interface BlobByteSource {
  readonly name: string;
  readonly size: number;
  open(): AsyncIterable<Uint8Array>;
  /** From byte `offset` on, through a ranged read (a LAZ file's chunk table lies at its end). */
  openAt(offset: number): AsyncIterable<Uint8Array>;
}

/**
 * `missing` is the error when the blob is gone by the time a read starts (deleted since its size
 * was taken): each caller says what that means for its work.
 */
export function blobByteSource(
  blobs: BlobStore,
  key: BlobKey,
  file: { name: string; size: number },
  missing: () => Error,
): BlobByteSource {
  async function* from(offset: number): AsyncGenerator<Uint8Array> {
    if (offset > 0 && offset >= file.size) return;
    const read = await blobs.get(key, offset > 0 ? { range: { start: offset } } : undefined);
    if (!read) throw missing();
    for await (const chunk of read.body) yield chunk as Uint8Array;
  }
  return {
    name: file.name || key.split('/').at(-1) || 'capture file',
    size: file.size,
    open: () => from(0),
    openAt: from,
  };
}
