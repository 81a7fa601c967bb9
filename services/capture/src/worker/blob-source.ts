// A stored blob as the measurements engine's ByteSource: re-readable from the start, streamed.
import type { BlobStore } from '@fieldops/kit/blobs';
import type { EngineFrame } from './engine.port.js';

export interface BlobByteSource {
  readonly name: string;
  readonly size: number;
  open(): AsyncIterable<Uint8Array>;
}

export function blobSource(blobs: BlobStore, frame: EngineFrame): BlobByteSource {
  return {
    name: frame.name || frame.key.split('/').at(-1) || 'capture file',
    size: frame.size,
    async *open() {
      const read = await blobs.get(frame.key);
      if (!read) throw new Error(`${frame.key} is no longer stored.`);
      for await (const chunk of read.body) yield chunk as Uint8Array;
    },
  };
}
