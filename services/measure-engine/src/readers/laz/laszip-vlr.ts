// The LASzip VLR ("laszip encoded", record 22204): how a LAZ file's points are compressed. Layout
// from LASzip's laszip.hpp (the LAZ specification): compressor u16, coder u16, version u8 u8 u16,
// options u32, chunk size u32, special EVLRs i64 i64, item count u16, then the items.
import { EngineError } from '../../errors.ts';

export const LASZIP_USER_ID = 'laszip encoded';
export const LASZIP_RECORD_ID = 22204;

/** Chunks of points compressed point by point (formats 0–5) or in layers (formats 6–10). */
const CHUNKED_COMPRESSORS = new Set([2, 3]);
/** A chunk size of all ones: chunks vary in size and the chunk table holds their counts (COPC). */
const VARIABLE_CHUNK_SIZE = 0xffffffff;
/** Point formats laz-perf decodes: 0–3 and 6–8 (not the waveform formats 4, 5, 9, 10). */
export const LAZ_DECODED_FORMATS: ReadonlySet<number> = new Set([0, 1, 2, 3, 6, 7, 8]);

export interface LaszipVlr {
  /** Points per chunk, or undefined when they vary (read from the chunk table). */
  readonly chunkPoints: number | undefined;
}

export function parseLaszipVlr(data: Uint8Array | undefined, file: string): LaszipVlr {
  if (data === undefined || data.byteLength < 34) {
    throw new EngineError(
      'malformed',
      `${file} is marked LAZ-compressed but has no complete LASzip record ("${LASZIP_USER_ID}", ${LASZIP_RECORD_ID}) saying how.`,
      file,
    );
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const compressor = view.getUint16(0, true);
  if (!CHUNKED_COMPRESSORS.has(compressor)) {
    throw new EngineError(
      'unsupported_format',
      `${file} is LAZ written by LASzip's unchunked compressor (${compressor}), which cannot be read chunk by chunk; rewrite it with a current writer (for example "pdal translate in.laz out.laz").`,
      file,
    );
  }
  const chunkSize = view.getUint32(12, true);
  if (chunkSize === 0) {
    throw new EngineError('malformed', `${file}: its LASzip record states chunks of 0 points.`, file);
  }
  return { chunkPoints: chunkSize === VARIABLE_CHUNK_SIZE ? undefined : chunkSize };
}
