// A LAZ file's points as uncompressed LAS point records, chunk by chunk: each chunk's compressed
// bytes are read (and only they), laz-perf decodes them into records, and the records go out in
// blocks the LAS reader's own loop reads exactly as it reads an uncompressed file. Memory is one
// compressed chunk and one block of records, whatever the file's size.
import { ByteQueue } from '../../io/byte-queue.js';
import { streamFrom } from '../../io/stream-from.js';
import { EngineError } from '../../errors.js';
import type { ByteSource } from '../../types.js';
import type { ChunkEntry } from './chunk-table-decoder.js';
import { readChunkTable } from './chunk-table.js';
import { loadLazPerf, type LazPerfModule } from './laz-perf-module.js';

/** Zeros after a chunk's bytes: the range decoder reads a few bytes ahead of what it decodes. */
const READ_AHEAD_PADDING = 16;

export interface LazRecordLayout {
  readonly pointDataOffset: number;
  readonly pointCount: number;
  readonly pointFormat: number;
  readonly recordBytes: number;
  readonly chunkPoints: number | undefined;
}

/** Blocks of at most `maxRecords` decoded records, `pointCount` records in all. */
export async function* lazRecords(
  source: ByteSource,
  layout: LazRecordLayout,
  maxRecords: number,
): AsyncGenerator<Uint8Array> {
  const entries = await readChunkTable(source, layout);
  const lazPerf = await loadLazPerf();
  const queue = new ByteQueue(streamFrom(source, layout.pointDataOffset + 8));
  let remaining = layout.pointCount;
  for (const [index, entry] of entries.entries()) {
    if (remaining === 0) break;
    const compressed = await queue.read(entry.bytes);
    if (compressed.byteLength < entry.bytes) {
      throw new EngineError(
        'truncated',
        `${source.name}: the file ends inside LAZ chunk ${index + 1} of ${entries.length}.`,
        source.name,
      );
    }
    const count = Math.min(pointsIn(entry, layout), remaining);
    try {
      yield* decodeChunk(lazPerf, compressed, count, layout, maxRecords);
    } catch (error) {
      // laz-perf throws bare WebAssembly errors on bytes it cannot decode.
      throw new EngineError(
        'malformed',
        `${source.name}: LAZ chunk ${index + 1} of ${entries.length} cannot be decoded (${String(error)}).`,
        source.name,
      );
    }
    remaining -= count;
  }
}

function pointsIn(entry: ChunkEntry, layout: LazRecordLayout): number {
  return layout.chunkPoints ?? entry.points;
}

function* decodeChunk(
  lazPerf: LazPerfModule,
  compressed: Uint8Array,
  count: number,
  layout: LazRecordLayout,
  maxRecords: number,
): Generator<Uint8Array> {
  const { recordBytes } = layout;
  const input = lazPerf._malloc(compressed.byteLength + READ_AHEAD_PADDING);
  const output = lazPerf._malloc(recordBytes);
  const decoder = new lazPerf.ChunkDecoder();
  try {
    lazPerf.HEAPU8.fill(0, input + compressed.byteLength, input + compressed.byteLength + READ_AHEAD_PADDING);
    lazPerf.HEAPU8.set(compressed, input);
    decoder.open(layout.pointFormat, recordBytes, input);
    for (let done = 0; done < count;) {
      const records = Math.min(maxRecords, count - done);
      const block = new Uint8Array(records * recordBytes);
      for (let k = 0; k < records; k++) {
        decoder.getPoint(output);
        // The heap is re-read each time: the module may have grown (and replaced) it.
        block.set(lazPerf.HEAPU8.subarray(output, output + recordBytes), k * recordBytes);
      }
      done += records;
      yield block;
    }
  } finally {
    decoder.delete();
    lazPerf._free(input);
    lazPerf._free(output);
  }
}
