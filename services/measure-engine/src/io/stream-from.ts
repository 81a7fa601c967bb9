// A source's bytes from an offset on. A source that can start there (a file on disk, bytes in
// memory) does; any other is read from its start and the bytes before the offset are dropped as
// they pass, so memory stays one chunk whatever the offset.
import type { ByteSource } from '../types.ts';

export async function* streamFrom(source: ByteSource, offset: number): AsyncGenerator<Uint8Array> {
  if (source.openAt) {
    yield* source.openAt(offset);
    return;
  }
  let skip = offset;
  for await (const chunk of source.open()) {
    if (skip >= chunk.byteLength) {
      skip -= chunk.byteLength;
      continue;
    }
    yield skip > 0 ? chunk.subarray(skip) : chunk;
    skip = 0;
  }
}
