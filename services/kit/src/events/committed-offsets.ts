// Committed offsets of every consumer group (the next offset each group will read, per topic), kept
// in one JSON file that is replaced atomically (write a tmp file, then rename over the old one).
// Commits are batched: a flush writes what memory holds, and memory only ever holds offsets of
// records already handled, so after a crash the file can lag (records are redelivered, which
// at-least-once allows) but never run ahead (which would lose records).
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fsyncFd } from '../files/fd-sync.ts';
import { dirname } from 'node:path';
import { PRIVATE_FILE_MODE } from '../files/private-files.ts';

interface OffsetsFile {
  version: 1;
  groups: Record<string, Record<string, number>>;
}

/** How long commits gather before one write; short, so a crash redelivers little. */
const FLUSH_DELAY_MS = 20;

export class CommittedOffsets {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;

  private readonly path: string;
  private readonly groups: Map<string, Map<string, number>>;
  private readonly fsync: boolean;
  private constructor(path: string, groups: Map<string, Map<string, number>>, fsync: boolean) {
    this.path = path;
    this.groups = groups;
    this.fsync = fsync;
  }

  static load(path: string, fsync: boolean): CommittedOffsets {
    return new CommittedOffsets(path, existsSync(path) ? parse(path) : new Map(), fsync);
  }

  /** The next offset `group` reads on `topic`, or undefined when the group never started there. */
  get(group: string, topic: string): number | undefined {
    return this.groups.get(group)?.get(topic);
  }

  commit(group: string, topic: string, nextOffset: number): void {
    let topics = this.groups.get(group);
    if (!topics) this.groups.set(group, (topics = new Map()));
    topics.set(topic, nextOffset);
    this.dirty = true;
    this.timer ??= setTimeout(() => this.flushInBackground(), FLUSH_DELAY_MS);
  }

  /** Writes pending commits now (a subscription's stop and the log's close call this). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return;
    writeAtomically(this.path, JSON.stringify(this.toFile()), this.fsync);
    this.dirty = false;
  }

  /** A timer has no caller to throw to: report, and let the next commit or close try again. */
  private flushInBackground(): void {
    try {
      this.flush();
    } catch (err) {
      process.emitWarning(err instanceof Error ? err : String(err));
    }
  }

  private toFile(): OffsetsFile {
    const groups: OffsetsFile['groups'] = {};
    for (const [group, topics] of this.groups) groups[group] = Object.fromEntries(topics);
    return { version: 1, groups };
  }
}

function parse(path: string): Map<string, Map<string, number>> {
  // Never torn (it is only ever renamed into place), so a parse failure is real damage: say so.
  const file = JSON.parse(readFileSync(path, 'utf8')) as Partial<OffsetsFile>;
  if (file.version !== 1 || typeof file.groups !== 'object' || file.groups === null) {
    throw new Error(`${path} is not an offsets file this version understands`);
  }
  const groups = new Map<string, Map<string, number>>();
  for (const [group, topics] of Object.entries(file.groups))
    groups.set(group, new Map(Object.entries(topics)));
  return groups;
}

function writeAtomically(path: string, text: string, fsync: boolean): void {
  const tmp = `${path}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: PRIVATE_FILE_MODE });
    if (fsync) fsyncPath(tmp);
    renameSync(tmp, path);
    // The rename itself is only durable once the directory entry is.
    if (fsync) fsyncPath(dirname(path));
  } catch (err) {
    throw new Error(`could not write committed offsets to ${path}`, { cause: err });
  }
}

export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncFd(fd);
  } finally {
    closeSync(fd);
  }
}
