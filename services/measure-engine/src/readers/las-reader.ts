// LAS point reader (versions 1.0 to 1.4, point data record formats 0 to 10). Coordinates are
// stored as 32-bit integers; the reader applies the header's scale and offset. Extra bytes after
// the standard fields are skipped. LAZ (LASzip-compressed, COPC among them) is decoded chunk by
// chunk by laz-perf into the same records (./laz/), so both read through one loop.
import { readWith, yieldWith } from '../io/byte-queue.ts';
import { EngineError } from '../errors.ts';
import { POINT_CHUNK_SIZE } from '../limits.ts';
import type { ByteSource, PointChunk, PointReader } from '../types.ts';
import { crsFromRecords } from './las-crs.ts';
import type { VariableLengthRecord } from './las-crs.ts';
import { LAS_RGB_OFFSET, parseLasHeader } from './las-header.ts';
import type { LasHeader } from './las-header.ts';
import { PointBatch } from './point-batch.ts';
import { LASZIP_RECORD_ID, LASZIP_USER_ID, LAZ_DECODED_FORMATS, parseLaszipVlr } from './laz/laszip-vlr.ts';
import { lazRecords } from './laz/laz-records.ts';
import { streamFrom } from '../io/stream-from.ts';

/** VLR header: reserved u16, user id char[16], record id u16, length u16, description char[32]. */
const VLR_HEADER_BYTES = 54;

export async function openLas(source: ByteSource): Promise<PointReader> {
  const { header, records } = await readPreamble(source);
  const recordBlocks = recordSource(source, header, records);
  const crs = crsFromRecords(records, source.name, header.wktFlag);
  const rgbOffset = LAS_RGB_OFFSET[header.pointFormat];
  let skipped = 0;

  async function* points(): AsyncGenerator<PointChunk> {
    skipped = 0;
    const batch = new PointBatch(rgbOffset !== undefined);
    const { recordBytes, pointCount } = header;
    const [sx, sy, sz] = header.scale;
    const [ox, oy, oz] = header.offset;
    let read = 0;
    for await (const block of recordBlocks()) {
      const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
      for (let at = 0; at < block.byteLength; at += recordBytes) {
        const x = view.getInt32(at, true) * sx + ox;
        const y = view.getInt32(at + 4, true) * sy + oy;
        const z = view.getInt32(at + 8, true) * sz + oz;
        if (rgbOffset === undefined) {
          batch.push(x, y, z);
        } else {
          // LAS colour is 16-bit; writers that store 8-bit values leave the high byte empty.
          const r = view.getUint16(at + rgbOffset, true);
          const g = view.getUint16(at + rgbOffset + 2, true);
          const b = view.getUint16(at + rgbOffset + 4, true);
          const shift = r > 255 || g > 255 || b > 255 ? 8 : 0;
          batch.push(x, y, z, r >> shift, g >> shift, b >> shift);
        }
        if (batch.full) yield batch.flush();
      }
      read += block.byteLength / recordBytes;
    }
    if (batch.count > 0) yield batch.flush();
    if (read < pointCount) {
      throw new EngineError(
        'truncated',
        `${source.name}: the ${header.compressedFlag ? 'LAZ' : 'LAS'} file ends after ${read} of the ${pointCount} points it declares.`,
        source.name,
      );
    }
  }

  return {
    header: {
      format: 'las',
      variant: `1.${header.versionMinor}`,
      declaredCount: header.pointCount,
      bounds: header.bounds,
      hasColor: rgbOffset !== undefined,
      pointRecordFormat: header.pointFormat,
      ...(crs.crs ? { crs: crs.crs } : {}),
      horizontalUnit: crs.horizontalUnit,
      verticalUnit: crs.verticalUnit,
    },
    points,
    get skippedNonFinite() {
      return skipped;
    },
  };
}

/** Blocks of whole point records: read as they are from LAS, decoded chunk by chunk from LAZ. */
function recordSource(
  source: ByteSource,
  header: LasHeader,
  records: readonly VariableLengthRecord[],
): () => AsyncGenerator<Uint8Array> {
  const laszip = records.find((r) => r.userId === LASZIP_USER_ID && r.recordId === LASZIP_RECORD_ID);
  if (!header.compressedFlag && laszip === undefined) {
    return async function* lasRecords() {
      // Extended VLRs after the points, or a consumer that stops early, leave bytes unread.
      yield* yieldWith(streamFrom(source, header.pointDataOffset), (queue) =>
        queue.records(header.recordBytes, header.pointCount, POINT_CHUNK_SIZE),
      );
    };
  }
  const { chunkPoints } = parseLaszipVlr(laszip?.data, source.name);
  if (!LAZ_DECODED_FORMATS.has(header.pointFormat)) {
    throw new EngineError(
      'unsupported_format',
      `${source.name} is LAZ with point format ${header.pointFormat} (waveform), which the LAZ decoder does not read; convert it to LAS, or to LAZ of format ${header.pointFormat > 5 ? 6 : 1} without waveforms.`,
      source.name,
    );
  }
  const layout = { ...header, chunkPoints };
  return () => lazRecords(source, layout, POINT_CHUNK_SIZE);
}

async function readPreamble(
  source: ByteSource,
): Promise<{ header: LasHeader; records: VariableLengthRecord[] }> {
  const { fixed, header, rest } = await readWith(source.open(), async (queue) => {
    const fixed = await queue.read(375);
    const header = parseLasHeader(fixed, source.name, source.size);
    return { fixed, header, rest: await queue.read(Math.max(0, header.pointDataOffset - fixed.byteLength)) };
  });
  const preamble = new Uint8Array(header.pointDataOffset);
  preamble.set(fixed.subarray(0, Math.min(fixed.byteLength, header.pointDataOffset)), 0);
  if (header.pointDataOffset > fixed.byteLength) preamble.set(rest, fixed.byteLength);
  if (fixed.byteLength + rest.byteLength < header.pointDataOffset) {
    throw new EngineError(
      'truncated',
      `${source.name}: the file ends before its point records start.`,
      source.name,
    );
  }
  return { header, records: readRecords(preamble, header, source.name) };
}

function readRecords(preamble: Uint8Array, header: LasHeader, file: string): VariableLengthRecord[] {
  const view = new DataView(preamble.buffer, preamble.byteOffset, preamble.byteLength);
  const latin1 = new TextDecoder('latin1');
  const records: VariableLengthRecord[] = [];
  let at = header.headerBytes;
  for (let k = 0; k < header.vlrCount; k++) {
    if (at + VLR_HEADER_BYTES > preamble.byteLength) {
      throw new EngineError(
        'malformed',
        `${file}: variable-length record ${k + 1} of ${header.vlrCount} runs into the point records.`,
        file,
      );
    }
    const length = view.getUint16(at + 20, true);
    const dataAt = at + VLR_HEADER_BYTES;
    if (dataAt + length > preamble.byteLength) {
      throw new EngineError(
        'malformed',
        `${file}: variable-length record ${k + 1} runs into the point records.`,
        file,
      );
    }
    records.push({
      userId: latin1.decode(preamble.subarray(at + 2, at + 18)).replace(/\0.*$/s, ''),
      recordId: view.getUint16(at + 18, true),
      data: preamble.subarray(dataAt, dataAt + length),
    });
    at = dataAt + length;
  }
  return records;
}
