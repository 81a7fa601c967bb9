// Where a LAZ file's chunks lie. The 8 bytes at the start of the point data give the offset of the
// chunk table (or -1: the offset is then in the file's last 8 bytes, as streaming writers leave
// it); the table lists each chunk's compressed size (and point count when chunks vary, as in
// COPC). Reading it first is what lets the points be streamed one chunk at a time.
import type { ByteQueue } from '../../io/byte-queue.ts';
import { readWith } from '../../io/byte-queue.ts';
import { streamFrom } from '../../io/stream-from.ts';
import { EngineError } from '../../errors.ts';
import type { ByteSource } from '../../types.ts';
import { decodeChunkEntries, type ChunkEntry } from './laszip-arithmetic.ts';

/** Bytes a chunk may take compressed: bounds the memory of one decode (50,000 points are ~1 MB). */
export const MAX_LAZ_CHUNK_BYTES = 64 * 1024 * 1024;
/** Compressed bytes per table entry at most (two integers of up to 32 bits and their escapes). */
const MAX_ENTRY_BYTES = 12;

export interface LazLayout {
  readonly pointDataOffset: number;
  readonly pointCount: number;
  readonly chunkPoints: number | undefined;
}

export async function readChunkTable(source: ByteSource, layout: LazLayout): Promise<ChunkEntry[]> {
  const file = source.name;
  const tableAt = await chunkTableOffset(source, layout.pointDataOffset);
  const firstChunkAt = layout.pointDataOffset + 8;
  if (tableAt < firstChunkAt || (source.size !== undefined && tableAt + 8 > source.size)) {
    throw new EngineError(
      'malformed',
      `${file}: its LAZ chunk table is said to start at byte ${tableAt}, outside the file's point data.`,
      file,
    );
  }
  return readWith(streamFrom(source, tableAt), async (queue) => {
    const entries = await readEntries(queue, layout, file);
    checkEntries(entries, layout, tableAt - firstChunkAt, file);
    return entries;
  });
}

/** The table's version, count and entries, as LASzip writes them. */
async function readEntries(queue: ByteQueue, layout: LazLayout, file: string): Promise<ChunkEntry[]> {
  const head = await queue.read(8);
  if (head.byteLength < 8) {
    throw new EngineError('truncated', `${file}: the file ends inside its LAZ chunk table.`, file);
  }
  const view = new DataView(head.buffer, head.byteOffset, 8);
  const version = view.getUint32(0, true);
  const chunks = view.getUint32(4, true);
  if (version !== 0 || chunks > layout.pointCount + 1) {
    throw new EngineError(
      'malformed',
      `${file}: its LAZ chunk table (version ${version}, ${chunks} chunks for ${layout.pointCount} points) is not one LASzip writes.`,
      file,
    );
  }
  const data = await queue.read(chunks * MAX_ENTRY_BYTES + 8);
  return decodeChunkEntries(data, chunks, layout.chunkPoints);
}

/** The table's offset: the i64 at the start of the point data, or the file's last 8 bytes. */
async function chunkTableOffset(source: ByteSource, pointDataOffset: number): Promise<number> {
  const first = await readWith(streamFrom(source, pointDataOffset), (queue) => queue.read(8));
  if (first.byteLength < 8) {
    throw new EngineError(
      'truncated',
      `${source.name}: the file ends before its LAZ point data.`,
      source.name,
    );
  }
  const offset = new DataView(first.buffer, first.byteOffset, 8).getBigInt64(0, true);
  if (offset !== -1n) return Number(offset);
  const tail = await lastBytes(source, 8);
  return Number(new DataView(tail.buffer, tail.byteOffset, 8).getBigInt64(0, true));
}

async function lastBytes(source: ByteSource, count: number): Promise<Uint8Array> {
  const from = source.size !== undefined ? Math.max(0, source.size - count) : 0;
  let tail = new Uint8Array(0);
  for await (const chunk of streamFrom(source, from)) {
    if (chunk.byteLength >= count) {
      tail = chunk.slice(chunk.byteLength - count);
    } else {
      const joined = new Uint8Array(tail.byteLength + chunk.byteLength);
      joined.set(tail, 0);
      joined.set(chunk, tail.byteLength);
      tail = joined.slice(Math.max(0, joined.byteLength - count));
    }
  }
  if (tail.byteLength < count) {
    throw new EngineError(
      'truncated',
      `${source.name}: the file ends before its LAZ chunk table.`,
      source.name,
    );
  }
  return tail;
}

/** The chunks must fill the bytes before the table and hold the points the header declares. */
function checkEntries(entries: ChunkEntry[], layout: LazLayout, chunkBytes: number, file: string): void {
  let bytes = 0;
  let points = 0;
  for (const entry of entries) {
    if (entry.bytes > MAX_LAZ_CHUNK_BYTES) {
      throw new EngineError(
        'too_large',
        `${file}: a LAZ chunk of ${entry.bytes} bytes; the engine decodes chunks of at most ${MAX_LAZ_CHUNK_BYTES} bytes.`,
        file,
      );
    }
    bytes += entry.bytes;
    points += entry.points;
  }
  const fixed = layout.chunkPoints;
  const enough = fixed === undefined ? points === layout.pointCount : points >= layout.pointCount;
  if (bytes !== chunkBytes || !enough) {
    throw new EngineError(
      'malformed',
      `${file}: its LAZ chunk table lists ${entries.length} chunks of ${bytes} bytes and ${points} points, where the file holds ${chunkBytes} bytes of chunks and declares ${layout.pointCount} points.`,
      file,
    );
  }
}
