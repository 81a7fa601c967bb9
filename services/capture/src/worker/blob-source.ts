// A stored blob as the measurements engine's ByteSource: re-readable from the start, streamed.
import type { BlobStore } from '@fieldops/kit/blobs';
import type { EngineFrame } from './engine.port.ts';

export interface BlobByteSource {
  readonly name: string;
  readonly size: number;
  open(): AsyncIterable<Uint8Array>;
  /** From byte `offset` on, through a ranged read (a LAZ file's chunk table lies at its end). */
  openAt(offset: number): AsyncIterable<Uint8Array>;
}

export function blobSource(blobs: BlobStore, frame: EngineFrame): BlobByteSource {
  async function* from(offset: number): AsyncGenerator<Uint8Array> {
    if (offset > 0 && offset >= frame.size) return;
    const read = await blobs.get(frame.key, offset > 0 ? { range: { start: offset } } : undefined);
    if (!read) throw new Error(`${frame.key} is no longer stored.`);
    for await (const chunk of read.body) yield chunk as Uint8Array;
  }
  return {
    name: frame.name || frame.key.split('/').at(-1) || 'capture file',
    size: frame.size,
    open: () => from(0),
    openAt: from,
  };
}
