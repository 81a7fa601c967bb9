// The on-disk form of one record: `<checksum> <batch-end> <json>\n`.
// - JSON escapes newlines inside strings, so a record never spans lines.
// - The checksum (first 16 hex of a SHA-256 over the rest of the line) tells a whole line from one
//   a crash tore or a disk damaged.
// - `batch-end` is 1 on the last line of a publish call and 0 before it, so that on open a batch
//   whose last line never reached the disk is dropped whole: one publish is all or nothing.
import { createHash } from 'node:crypto';

/** What a line holds; short names because they repeat on every line. */
export interface StoredRecord {
  /** Offset, checked against the line's position when read back. */
  o: number;
  ts: string;
  k: string;
  v: unknown;
  h: Record<string, string>;
}

export interface ScannedLine {
  whole: boolean;
  batchEnd: boolean;
}

export const NEWLINE = 0x0a;
const CHECKSUM_CHARS = 16;
/** Checksum, space, flag, space. */
const PREFIX_BYTES = CHECKSUM_CHARS + 3;

function checksumOf(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex').slice(0, CHECKSUM_CHARS);
}

export function encodeLine(record: StoredRecord, batchEnd: boolean): Buffer {
  const body = Buffer.from(`${batchEnd ? 1 : 0} ${JSON.stringify(record)}`, 'utf8');
  return Buffer.concat([Buffer.from(`${checksumOf(body)} `, 'latin1'), body, Buffer.of(NEWLINE)]);
}

/** Checks a line (without its newline) cheaply enough to run over a whole topic on open. */
export function scanLine(line: Buffer): ScannedLine {
  if (line.length < PREFIX_BYTES || line[CHECKSUM_CHARS] !== 0x20) return { whole: false, batchEnd: false };
  const body = line.subarray(CHECKSUM_CHARS + 1);
  const whole = line.toString('latin1', 0, CHECKSUM_CHARS) === checksumOf(body);
  return { whole, batchEnd: whole && body[0] === 0x31 };
}

/** Parses a line (without its newline); throws when it is not whole. */
export function decodeLine(line: Buffer): StoredRecord {
  if (!scanLine(line).whole) throw new Error('checksum mismatch');
  return JSON.parse(line.toString('utf8', PREFIX_BYTES)) as StoredRecord;
}
