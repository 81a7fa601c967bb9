// Recovery of a topic file on open: finds where each whole record starts and where the durable
// part of the file ends, so the torn tail of an interrupted append can be cut off.
import { fstatSync, readSync } from 'node:fs';
import { NEWLINE, scanLine } from './record-line.ts';

export interface ScanResult {
  /** File position of each record, by offset. */
  starts: number[];
  /** End of the last whole batch; anything after it is a torn tail. */
  end: number;
}

/** Thrown when a topic file is damaged somewhere an interrupted append cannot explain. */
export class TopicFileCorrupt extends Error {
  constructor(path: string, position: number) {
    super(
      `event log file ${path} is damaged at byte ${position} and records follow the damage; ` +
        'it needs a human (restore it, or truncate it at that byte to drop what follows)',
    );
    this.name = 'TopicFileCorrupt';
  }
}

const CHUNK_BYTES = 1 << 20;

/**
 * Walks the file in chunks (a topic can outgrow memory). Only the last append can be torn, and it
 * can be torn anywhere inside (pages reach the disk out of order), so a damaged line is accepted as
 * the torn tail if at most one batch end follows it: its own. More whole batches after damage
 * mean the damage is not from a crash, and open refuses rather than silently dropping records.
 */
export function scanTopicFile(fd: number, path: string): ScanResult {
  const size = fstatSync(fd).size;
  const starts: number[] = [];
  let batch: number[] = [];
  let end = 0;
  let damagedAt: number | null = null;
  let batchEndsAfterDamage = 0;

  const onLine = (line: Buffer, at: number, after: number): void => {
    const { whole, batchEnd } = scanLine(line);
    if (!whole) damagedAt ??= at;
    else if (damagedAt !== null) batchEndsAfterDamage += batchEnd ? 1 : 0;
    else {
      batch.push(at);
      if (batchEnd) {
        for (const start of batch) starts.push(start);
        batch = [];
        end = after;
      }
    }
  };
  forEachLine(fd, size, onLine);
  if (damagedAt !== null && batchEndsAfterDamage > 1) throw new TopicFileCorrupt(path, damagedAt);
  return { starts, end };
}

/** Calls onLine for every newline-terminated line; bytes after the last newline are ignored. */
function forEachLine(
  fd: number,
  size: number,
  onLine: (line: Buffer, at: number, after: number) => void,
): void {
  let carry = Buffer.alloc(0);
  let carryAt = 0;
  let position = 0;
  while (position < size) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - position));
    const read = readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) break;
    position += read;
    const buffer =
      carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
    let lineStart = 0;
    for (let nl = buffer.indexOf(NEWLINE); nl !== -1; nl = buffer.indexOf(NEWLINE, lineStart)) {
      onLine(buffer.subarray(lineStart, nl), carryAt + lineStart, carryAt + nl + 1);
      lineStart = nl + 1;
    }
    carry = buffer.subarray(lineStart);
    carryAt += lineStart;
  }
}
