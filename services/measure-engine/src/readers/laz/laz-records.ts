// A LAZ file's points as uncompressed LAS point records, chunk by chunk: each chunk's compressed
// bytes are read (and only they), laz-perf decodes them into records, and the records go out in
// blocks the LAS reader's own loop reads exactly as it reads an uncompressed file. Memory is one
// compressed chunk and one block of records, whatever the file's size.
import { yieldWith, type ByteQueue } from '../../io/byte-queue.ts';
import { streamFrom } from '../../io/stream-from.ts';
import { EngineError } from '../../errors.ts';
import type { ByteSource } from '../../types.ts';
import type { ChunkEntry } from './laszip-arithmetic.ts';
import { readChunkTable } from './chunk-table.ts';
import { loadLazPerf, type LazPerfModule } from './laz-perf-module.ts';

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
  const buffers = new ModuleBuffers(lazPerf, layout.recordBytes);
  try {
    yield* yieldWith(streamFrom(source, layout.pointDataOffset + 8), (queue) =>
      chunks(source, queue, entries, layout, maxRecords, lazPerf, buffers),
    );
  } finally {
    buffers.free();
  }
}

async function* chunks(
  source: ByteSource,
  queue: ByteQueue,
  entries: readonly ChunkEntry[],
  layout: LazRecordLayout,
  maxRecords: number,
  lazPerf: LazPerfModule,
  buffers: ModuleBuffers,
): AsyncGenerator<Uint8Array> {
  const blocks = new RecordBlocks(layout.recordBytes, maxRecords);
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
      decodeChunk(lazPerf, buffers, compressed, count, layout, blocks);
    } catch (error) {
      // laz-perf throws bare WebAssembly errors on bytes it cannot decode.
      throw new EngineError(
        'malformed',
        `${source.name}: LAZ chunk ${index + 1} of ${entries.length} cannot be decoded (${String(error)}).`,
        source.name,
      );
    }
    remaining -= count;
    yield* blocks.take(remaining === 0);
  }
  yield* blocks.take(true);
}

function pointsIn(entry: ChunkEntry, layout: LazRecordLayout): number {
  return layout.chunkPoints ?? entry.points;
}

/** Memory inside the module, reused from chunk to chunk (a file may hold millions of chunks). */
class ModuleBuffers {
  input = 0;
  private inputBytes = 0;
  readonly output: number;

  private readonly lazPerf: LazPerfModule;
  constructor(lazPerf: LazPerfModule, recordBytes: number) {
    this.lazPerf = lazPerf;
    this.output = lazPerf._malloc(recordBytes);
  }

  /** The chunk's bytes in module memory, followed by zeros the decoder may read ahead into. */
  place(compressed: Uint8Array): number {
    const needed = compressed.byteLength + READ_AHEAD_PADDING;
    if (needed > this.inputBytes) {
      if (this.input !== 0) this.lazPerf._free(this.input);
      this.input = this.lazPerf._malloc(needed);
      this.inputBytes = needed;
    }
    this.lazPerf.HEAPU8.set(compressed, this.input);
    this.lazPerf.HEAPU8.fill(0, this.input + compressed.byteLength, this.input + needed);
    return this.input;
  }

  free(): void {
    if (this.input !== 0) this.lazPerf._free(this.input);
    this.lazPerf._free(this.output);
  }
}

/** Decoded records gathered into blocks of `maxRecords`, across chunks however small. */
class RecordBlocks {
  private block: Uint8Array;
  private filled = 0;
  readonly ready: Uint8Array[] = [];

  private readonly recordBytes: number;
  private readonly maxRecords: number;
  constructor(recordBytes: number, maxRecords: number) {
    this.recordBytes = recordBytes;
    this.maxRecords = maxRecords;
    this.block = new Uint8Array(recordBytes * maxRecords);
  }

  push(record: Uint8Array): void {
    this.block.set(record, this.filled * this.recordBytes);
    if (++this.filled === this.maxRecords) {
      this.ready.push(this.block);
      this.block = new Uint8Array(this.recordBytes * this.maxRecords);
      this.filled = 0;
    }
  }

  /** The blocks filled so far, and the part-filled one when `all`. */
  take(all: boolean): Uint8Array[] {
    if (all && this.filled > 0) {
      this.ready.push(this.block.subarray(0, this.filled * this.recordBytes));
      this.filled = 0;
    }
    return this.ready.splice(0);
  }
}

function decodeChunk(
  lazPerf: LazPerfModule,
  buffers: ModuleBuffers,
  compressed: Uint8Array,
  count: number,
  layout: LazRecordLayout,
  blocks: RecordBlocks,
): void {
  const { recordBytes } = layout;
  const { output } = buffers;
  const decoder = new lazPerf.ChunkDecoder();
  try {
    decoder.open(layout.pointFormat, recordBytes, buffers.place(compressed));
    for (let k = 0; k < count; k++) {
      decoder.getPoint(output);
      // The heap is re-read each time: the module may have grown (and replaced) it.
      blocks.push(lazPerf.HEAPU8.subarray(output, output + recordBytes));
    }
  } finally {
    decoder.delete();
  }
}
