// Byte sources the readers stream from: a file on disk (the blob store's embedded adapter, or a
// downloaded object) or bytes already in memory (tests, small uploads).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ByteSource } from '../types.ts';

/** Chunks of 1 MiB: large enough to amortise the syscall, small enough to never matter. */
const FILE_CHUNK_BYTES = 1 << 20;

export async function fileSource(path: string, name = basename(path)): Promise<ByteSource> {
  const { size } = await stat(path);
  return {
    name,
    size,
    open: () => createReadStream(path, { highWaterMark: FILE_CHUNK_BYTES }),
    openAt: (offset) => createReadStream(path, { highWaterMark: FILE_CHUNK_BYTES, start: offset }),
  };
}

/** Bytes in memory, handed out in chunks of `chunkBytes` (small chunks exercise reassembly). */
export function bufferSource(bytes: Uint8Array, name = 'upload', chunkBytes = FILE_CHUNK_BYTES): ByteSource {
  async function* from(offset: number): AsyncGenerator<Uint8Array> {
    for (let at = offset; at < bytes.byteLength; at += chunkBytes) {
      yield bytes.subarray(at, Math.min(at + chunkBytes, bytes.byteLength));
    }
  }
  return { name, size: bytes.byteLength, open: () => from(0), openAt: from };
}
