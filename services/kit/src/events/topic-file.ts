// One topic of the embedded log: an append-only file of record lines (record-line.ts) and an
// in-memory index of where each record starts. Records are read back from disk when consumed, so
// memory grows by one number per record rather than by the records, and every consumer gets its
// own copy of a value (a handler that mutates a record cannot change what another group sees).
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { PRIVATE_FILE_MODE } from '../files/private-files.ts';
import type { EventMessage, EventRecord } from './port.ts';
import { decodeLine, encodeLine } from './record-line.ts';
import { scanTopicFile } from './topic-scan.ts';
import { fsyncFd } from '../files/fd-sync.ts';

export class TopicFile {
  /** Appended since the last fsync. */
  private dirty = false;
  /** Set when a failed append could not be undone; the file then takes no more appends. */
  private broken: Error | null = null;

  readonly topic: string;
  private readonly path: string;
  private readonly fd: number;
  private readonly starts: number[];
  private size: number;
  private constructor(topic: string, path: string, fd: number, starts: number[], size: number) {
    this.topic = topic;
    this.path = path;
    this.fd = fd;
    this.starts = starts;
    this.size = size;
  }

  /** Opens (creating if needed) and recovers the file: a torn tail is cut off here. */
  static open(path: string, topic: string): TopicFile {
    const fd = openSync(path, 'a+', PRIVATE_FILE_MODE);
    try {
      const { starts, end } = scanTopicFile(fd, path);
      if (fstatSync(fd).size > end) {
        ftruncateSync(fd, end);
        fsyncFd(fd);
      }
      return new TopicFile(topic, path, fd, starts, end);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** The number of records, which is also the offset the next record gets. */
  get length(): number {
    return this.starts.length;
  }

  /** Appends the messages as one batch (all or nothing, also across a crash). */
  append(messages: readonly EventMessage[], timestamp: string, fsync: boolean): void {
    if (this.broken) throw this.broken;
    if (messages.length === 0) return;
    const first = this.starts.length;
    const last = messages.length - 1;
    const lines = messages.map((message, i) =>
      encodeLine(
        { o: first + i, ts: timestamp, k: message.key, v: message.value, h: { ...message.headers } },
        i === last,
      ),
    );
    this.write(Buffer.concat(lines), fsync);
    let position = this.size;
    for (const line of lines) {
      this.starts.push(position);
      position += line.length;
    }
    this.size = position;
  }

  read(offset: number): EventRecord {
    const start = this.starts[offset];
    if (start === undefined) throw new RangeError(`topic ${this.topic} has no offset ${offset}`);
    const end = this.starts[offset + 1] ?? this.size;
    const line = Buffer.allocUnsafe(end - start - 1);
    readFully(this.fd, line, start);
    const stored = decodeLine(line);
    if (stored.o !== offset) throw new Error(`${this.path}: line at offset ${offset} says ${stored.o}`);
    return {
      topic: this.topic,
      partition: 0,
      offset,
      key: stored.k,
      value: stored.v,
      headers: stored.h,
      timestamp: stored.ts,
    };
  }

  /** Flushes appends not yet fsynced (the `interval` mode's timer and close call this). */
  sync(): void {
    if (!this.dirty) return;
    fsyncFd(this.fd);
    this.dirty = false;
  }

  close(fsync: boolean): void {
    if (fsync) this.sync();
    closeSync(this.fd);
  }

  private write(bytes: Buffer, fsync: boolean): void {
    try {
      let written = 0;
      while (written < bytes.length) written += writeSync(this.fd, bytes, written);
      if (fsync) fsyncFd(this.fd);
      this.dirty = !fsync;
    } catch (err) {
      this.undo(err);
      throw err;
    }
  }

  /** Cuts a partly written batch so the next append does not land after half a line. */
  private undo(cause: unknown): void {
    try {
      ftruncateSync(this.fd, this.size);
    } catch {
      this.broken = new Error(`event log file ${this.path} could not be repaired after a failed append`, {
        cause,
      });
    }
  }
}

function readFully(fd: number, into: Buffer, position: number): void {
  let read = 0;
  while (read < into.length) {
    const n = readSync(fd, into, read, into.length - read, position + read);
    if (n === 0) throw new Error(`unexpected end of event log file at byte ${position + read}`);
    read += n;
  }
}
