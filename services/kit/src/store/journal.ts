// The append-only journal: one checksummed line per commit, written with writeSync before the
// commit resolves, so once a commit is acknowledged its line is in the OS page cache and survives
// the process being killed. The fsync policy decides how much a power loss can take on top:
// 'always' fdatasyncs every line, 'interval' at most every 100 ms in the background, 'never' leaves
// it to the OS.
import fs from 'node:fs';
import { PRIVATE_FILE_MODE } from '../files/private-files.ts';
import { frameLine, parseLine, splitLines } from './framing.ts';

export type FsyncPolicy = 'always' | 'interval' | 'never';

const FSYNC_INTERVAL_MS = 100;

export interface JournalLine {
  number: number;
  value: unknown;
}

export interface JournalContents {
  lines: JournalLine[];
  /** Length of the trusted prefix; anything after it is a torn tail to cut off. */
  validBytes: number;
  /** Set when the last line was damaged and has to be discarded. */
  tornLine?: number;
}

/**
 * Reads every trusted line. A damaged last line is what a crash mid-write leaves and is reported
 * as torn (its commit was never acknowledged: the line is written before commit resolves). A
 * damaged line with trusted lines after it cannot come from a crash, so opening is refused rather
 * than silently dropping acknowledged commits.
 */
export function readJournal(file: string): JournalContents {
  const bytes = readIfExists(file);
  const lines: JournalLine[] = [];
  let validBytes = 0;
  let damaged: number | undefined;
  for (const line of splitLines(bytes)) {
    if (damaged !== undefined) {
      throw new Error(`${file}: line ${damaged} is corrupt (checksum mismatch) and is not the last line`);
    }
    // A line without its newline was cut short, even when its checksum happens to hold.
    const value = line.complete ? parseLine(bytes, line) : undefined;
    if (value === undefined) {
      damaged = line.number;
      continue;
    }
    lines.push({ number: line.number, value });
    validBytes = line.end + 1;
  }
  return damaged === undefined ? { lines, validBytes } : { lines, validBytes, tornLine: damaged };
}

function readIfExists(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  }
}

export class JournalWriter {
  private readonly fd: number;
  private size: number;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> = Promise.resolve();

  /** Opens for appending after cutting the file to its trusted prefix. */
  private readonly file: string;
  private readonly policy: FsyncPolicy;
  constructor(file: string, policy: FsyncPolicy, validBytes: number) {
    this.file = file;
    this.policy = policy;
    this.fd = fs.openSync(file, 'a', PRIVATE_FILE_MODE);
    if (fs.fstatSync(this.fd).size !== validBytes) {
      fs.ftruncateSync(this.fd, validBytes);
      fs.fdatasyncSync(this.fd);
    }
    this.size = validBytes;
  }

  get bytes(): number {
    return this.size;
  }

  /**
   * Writes one line completely or not at all; returns once the line is in the OS. `json` is the
   * value's JSON when the caller has it already.
   */
  append(value: unknown, json?: string): void {
    const line = frameLine(value, json);
    try {
      writeFully(this.fd, line);
    } catch (error) {
      // A partial line (e.g. ENOSPC) would otherwise sit in the middle of the journal once later
      // lines follow, and refuse the next open.
      fs.ftruncateSync(this.fd, this.size);
      throw error;
    }
    this.size += line.length;
    this.afterWrite();
  }

  /** Empties the journal once a snapshot holds everything it recorded. */
  truncate(): void {
    fs.ftruncateSync(this.fd, 0);
    this.size = 0;
    this.afterWrite();
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.syncing;
    if (this.dirty && this.policy !== 'never') fs.fdatasyncSync(this.fd);
    fs.closeSync(this.fd);
  }

  private afterWrite(): void {
    if (this.policy === 'always') fs.fdatasyncSync(this.fd);
    else if (this.policy === 'interval') this.scheduleSync();
  }

  private scheduleSync(): void {
    this.dirty = true;
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.backgroundSync(), FSYNC_INTERVAL_MS);
    // A pending sync must not keep a finished process (or a test run) alive.
    this.timer.unref();
  }

  private backgroundSync(): void {
    this.timer = undefined;
    this.dirty = false;
    this.syncing = this.syncing.then(
      () =>
        new Promise<void>((resolve) => {
          fs.fdatasync(this.fd, (error) => {
            if (error) console.warn(`${this.file}: background fdatasync failed: ${error.message}`);
            resolve();
          });
        }),
    );
  }
}

function writeFully(fd: number, buffer: Buffer): void {
  let offset = 0;
  while (offset < buffer.length) offset += fs.writeSync(fd, buffer, offset, buffer.length - offset);
}
