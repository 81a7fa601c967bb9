// Snapshots: the whole store state as checksummed lines (one per document, so no single string has
// to hold the whole data set), a header with the last journal sequence it includes and a trailer
// with the record count. Written to a temp file, fsynced and renamed over the previous snapshot,
// so a crash at any point leaves either the old or the new snapshot, never a mix.
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../files/private-files.ts';
import { frameLine, parseLine, splitLines } from './framing.ts';
import { fsyncFd } from '../files/fd-sync.ts';

export interface SnapshotHeader {
  format: 1;
  /** The last journal sequence whose effects the snapshot holds; replay skips lines up to it. */
  seq: number;
  /** Each tenant's last outbox seq (embedded-state.ts); absent in snapshots of older versions. */
  outboxSeqs?: [string, number][];
  /** The one global outbox counter of older versions, read only to open their snapshots. */
  nextOutboxSeq?: number;
}

export interface Snapshot {
  header: SnapshotHeader;
  records: unknown[];
}

const FLUSH_BYTES = 1 << 20;

export function writeSnapshot(file: string, header: SnapshotHeader, records: Iterable<unknown>): void {
  const temp = `${file}.tmp`;
  const fd = fs.openSync(temp, 'w', PRIVATE_FILE_MODE);
  try {
    const count = writeRecords(fd, header, records);
    writeAll(fd, frameLine({ end: count }));
    fsyncFd(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
  syncDirectory(path.dirname(file));
}

function writeRecords(fd: number, header: SnapshotHeader, records: Iterable<unknown>): number {
  let pending: Buffer[] = [frameLine({ header })];
  let pendingBytes = 0;
  let count = 0;
  for (const record of records) {
    const line = frameLine({ r: record });
    pending.push(line);
    pendingBytes += line.length;
    count++;
    if (pendingBytes >= FLUSH_BYTES) {
      writeAll(fd, Buffer.concat(pending));
      pending = [];
      pendingBytes = 0;
    }
  }
  writeAll(fd, Buffer.concat(pending));
  return count;
}

function writeAll(fd: number, buffer: Buffer): void {
  let offset = 0;
  while (offset < buffer.length) offset += fs.writeSync(fd, buffer, offset, buffer.length - offset);
}

/** Makes a rename or a newly created file durable: the directory entry lives in the directory. */
export function syncDirectory(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fsyncFd(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads a snapshot; a snapshot is only ever renamed into place whole, so any damage is fatal. */
export function readSnapshot(file: string): Snapshot | null {
  if (!fs.existsSync(file)) return null;
  const bytes = fs.readFileSync(file);
  let header: SnapshotHeader | undefined;
  const records: unknown[] = [];
  let ended = false;
  for (const line of splitLines(bytes)) {
    const value = line.complete ? parseLine(bytes, line) : undefined;
    if (value === undefined || value === null || typeof value !== 'object' || ended) {
      throw new Error(`${file}: line ${line.number} is corrupt; the snapshot cannot be read`);
    }
    const entry = value as { header?: SnapshotHeader; r?: unknown; end?: number };
    if (line.number === 1) header = readHeader(file, entry.header);
    else if (entry.end !== undefined) ended = checkCount(file, entry.end, records.length);
    else records.push(entry.r);
  }
  if (header === undefined || !ended) throw new Error(`${file}: the snapshot is incomplete`);
  return { header, records };
}

function readHeader(file: string, header: SnapshotHeader | undefined): SnapshotHeader {
  if (header?.format !== 1) throw new Error(`${file}: unknown snapshot format`);
  return header;
}

function checkCount(file: string, expected: number, actual: number): boolean {
  if (expected !== actual) throw new Error(`${file}: the snapshot holds ${actual} records, not ${expected}`);
  return true;
}
