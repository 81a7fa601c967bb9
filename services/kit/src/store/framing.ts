// Checksummed lines, the unit of both the journal and the snapshot: `<crc32 hex> <json>\n`.
// A line is only trusted when its checksum matches, so a write torn by a crash (or a flipped bit)
// is detected instead of being parsed as a shorter, still valid JSON document.
import zlib from 'node:zlib';

/** CRC-32 (IEEE) of bytes[start, end): Node's zlib.crc32 (every commit and every line replayed on open pays it). */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return zlib.crc32(bytes.subarray(start, end)) >>> 0;
}

const HEADER_LENGTH = 9; // 8 hex digits and a space
const NEWLINE = 0x0a;

export function frameLine(value: unknown, text: string = JSON.stringify(value)): Buffer {
  const json = Buffer.from(text, 'utf8');
  const header = Buffer.from(`${crc32(json).toString(16).padStart(8, '0')} `, 'latin1');
  return Buffer.concat([header, json, Buffer.from('\n', 'latin1')]);
}

/** One line of a file, newline excluded; `complete` is false for a last line without its newline. */
export interface RawLine {
  number: number;
  start: number;
  end: number;
  complete: boolean;
}

export function* splitLines(bytes: Buffer): Generator<RawLine> {
  let start = 0;
  let number = 1;
  while (start < bytes.length) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline === -1 ? bytes.length : newline;
    yield { number, start, end, complete: newline !== -1 };
    start = end + 1;
    number++;
  }
}

/** Returns the parsed JSON of a line whose checksum matches, or undefined for a damaged line. */
export function parseLine(bytes: Buffer, line: RawLine): unknown {
  if (line.end - line.start <= HEADER_LENGTH) return undefined;
  const header = bytes.toString('latin1', line.start, line.start + HEADER_LENGTH);
  if (!/^[0-9a-f]{8} $/.test(header)) return undefined;
  const jsonStart = line.start + HEADER_LENGTH;
  if (parseInt(header.slice(0, 8), 16) !== crc32(bytes, jsonStart, line.end)) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8', jsonStart, line.end)) as unknown;
  } catch {
    return undefined;
  }
}
