// The embedded event log: the in-process adapter `npm start` uses, persisted under a directory.
//
//   <dir>/topics/<topic>.log   one append-only file per topic, one checksummed line per record
//   <dir>/offsets.json         committed offsets of every consumer group (replaced atomically)
//   <dir>/LOCK                 held with an OS lock while the log is open (process/dir-lock.ts)
//
// Differences from Kafka, on purpose:
// - A topic has one partition (0), whatever ensureTopic asks for. One partition keeps every record
//   in order, which is stronger than per-key order, so code that is right on Kafka is right here.
// - Kafka splits a topic's partitions among a group's members. With one partition, one member of a
//   group consumes a topic; another subscription of the same group to it waits idle until the
//   first stops, then continues from the group's committed offset.
// - A group starting on a topic commits its start position at once, so a group that starts at the
//   end (fromBeginning: false) and stops before any record arrives resumes from that point later.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { nowIso } from '../ids.ts';
import { DEFAULT_RETRY_BASE_MS, DEFAULT_RETRY_CAP_MS, type RetryPolicy } from './record-retry.ts';
import { CommittedOffsets, fsyncPath } from './committed-offsets.ts';
import { effectiveFsync } from '../files/fd-sync.ts';
import { lockDirectory } from '../files/dir-lock.ts';
import { makePrivateDirSync, tightenTreeSync } from '../files/private-files.ts';
import { GroupMember } from './group-member.ts';
import type { ConsumerHost } from './group-member.ts';
import type {
  EventLog,
  EventLogStatus,
  EventMessage,
  EventRecord,
  SubscribeOptions,
  Subscription,
} from './port.ts';
import { TopicFile } from './topic-file.ts';
import { assertTopicName, deadLetterTopicOf } from './topic-name.ts';

export type FsyncMode = 'always' | 'interval' | 'never';

export interface EmbeddedEventLogOptions {
  dir: string;
  /**
   * When appends reach the disk, not just the OS: `always` before publish resolves (survives power
   * loss), `interval` within ~100 ms (the platform default), `never` leaves it to the OS.
   * Every mode writes before publish resolves, so a crash of the process alone loses nothing.
   */
  fsync?: FsyncMode;
  /** First retry delay of a failing handler; doubles per attempt. */
  retryBaseMs?: number;
  /** The longest retry delay, however long a handler keeps failing. Default 30 s. */
  retryCapMs?: number;
}

const INTERVAL_FSYNC_MS = 100;
const LOG_SUFFIX = '.log';

export async function openEmbeddedEventLog(options: EmbeddedEventLogOptions): Promise<EventLog> {
  const fsync = effectiveFsync(options.fsync ?? 'interval', `the event log in ${options.dir}`);
  const topicsDir = join(options.dir, 'topics');
  makePrivateDirSync(options.dir);
  makePrivateDirSync(topicsDir);
  const unlock = lockDirectory(options.dir, 'event log');
  try {
    tightenTreeSync(options.dir);
    const offsets = CommittedOffsets.load(join(options.dir, 'offsets.json'), fsync === 'always');
    const topics = openTopics(topicsDir);
    const retry = {
      baseMs: options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS,
      capMs: options.retryCapMs ?? DEFAULT_RETRY_CAP_MS,
    };
    return new EmbeddedEventLog(topicsDir, topics, offsets, fsync, retry, unlock);
  } catch (err) {
    unlock();
    throw err;
  }
}

function openTopics(topicsDir: string): Map<string, TopicFile> {
  const topics = new Map<string, TopicFile>();
  try {
    for (const name of readdirSync(topicsDir)) {
      if (!name.endsWith(LOG_SUFFIX)) continue;
      const topic = name.slice(0, -LOG_SUFFIX.length);
      topics.set(topic, TopicFile.open(join(topicsDir, name), topic));
    }
    return topics;
  } catch (err) {
    for (const file of topics.values()) file.close(false);
    throw err;
  }
}

class EmbeddedEventLog implements EventLog, ConsumerHost {
  private readonly members = new Set<GroupMember>();
  /** `group NUL topic` → the member consuming it; see the header for why there is only one. */
  private readonly owners = new Map<string, GroupMember>();
  private readonly syncTimer: NodeJS.Timeout | undefined;
  /** No new subscriptions; publishes still work so records in hand can finish. */
  private closing = false;
  private closed = false;

  private readonly topicsDir: string;
  private readonly topics: Map<string, TopicFile>;
  private readonly offsets: CommittedOffsets;
  private readonly fsync: FsyncMode;
  private readonly retry: Omit<RetryPolicy, 'maxAttempts'>;
  private readonly unlock: () => void;
  constructor(
    topicsDir: string,
    topics: Map<string, TopicFile>,
    offsets: CommittedOffsets,
    fsync: FsyncMode,
    retry: Omit<RetryPolicy, 'maxAttempts'>,
    unlock: () => void,
  ) {
    this.topicsDir = topicsDir;
    this.topics = topics;
    this.offsets = offsets;
    this.fsync = fsync;
    this.retry = retry;
    this.unlock = unlock;
    if (fsync === 'interval') {
      this.syncTimer = setInterval(() => this.syncAll(), INTERVAL_FSYNC_MS);
      // Housekeeping must not keep a finished process alive; close() syncs for the last time.
      this.syncTimer.unref();
    }
  }

  /** `partitions` is accepted for Kafka's sake; embedded topics have one (see the header). */
  /** In-process: there is no broker to lose. */
  status(): EventLogStatus {
    return { connected: !this.closed, reconnecting: [] };
  }

  async ensureTopic(topic: string, _partitions?: number): Promise<void> {
    this.assertOpen();
    this.topicFile(topic);
  }

  async listTopics(): Promise<string[]> {
    this.assertOpen();
    return [...this.topics.keys()].sort();
  }

  async readTopic(topic: string): Promise<EventRecord[]> {
    this.assertOpen();
    const file = this.topics.get(topic);
    if (file === undefined) return [];
    return Array.from({ length: file.length }, (_, offset) => file.read(offset));
  }

  async publish(topic: string, messages: EventMessage[]): Promise<void> {
    this.assertOpen();
    this.append(topic, messages);
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.assertOpen();
    if (this.closing) throw new Error('event log is closing');
    const member = new GroupMember(this, options, this.retry);
    // Consumers may start before anything is published; their topics exist from now on.
    for (const topic of member.topics) this.topicFile(topic);
    this.members.add(member);
    // Claimed now, before subscribe resolves: a group starting at the end starts at this end.
    for (const topic of member.topics) this.claim(member, topic);
    member.start();
    return { stop: () => member.stop() };
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.syncTimer);
    try {
      await Promise.all([...this.members].map((member) => member.stop()));
      this.offsets.flush();
    } finally {
      this.closed = true;
      for (const file of this.topics.values()) file.close(this.fsync !== 'never');
      this.unlock();
    }
  }

  nextRecord(member: GroupMember, topic: string): EventRecord | null {
    if (!this.claim(member, topic)) return null;
    const file = this.topicFile(topic);
    const offset = this.offsets.get(member.group, topic) ?? 0;
    return offset < file.length ? file.read(offset) : null;
  }

  commit(group: string, topic: string, nextOffset: number): void {
    this.offsets.commit(group, topic, nextOffset);
  }

  deadLetter(record: EventRecord, reason: Record<string, string>): void {
    const headers = {
      ...record.headers,
      ...reason,
      'x-original-topic': record.topic,
      'x-original-partition': String(record.partition),
      'x-original-offset': String(record.offset),
    };
    this.append(deadLetterTopicOf(record.topic), [{ key: record.key, value: record.value, headers }]);
  }

  release(member: GroupMember): void {
    for (const [key, owner] of this.owners) if (owner === member) this.owners.delete(key);
    this.members.delete(member);
    try {
      this.offsets.flush();
    } catch (err) {
      process.emitWarning(err instanceof Error ? err : String(err));
    }
    for (const other of this.members) if (other.group === member.group) other.wakeup.notify();
  }

  private append(topic: string, messages: EventMessage[]): void {
    for (const message of messages) assertMessage(message);
    this.topicFile(topic).append(messages, nowIso(), this.fsync === 'always');
    // Idle subscribers wait on a wake-up rather than polling, so this is the whole delivery delay.
    for (const member of this.members) if (member.topics.includes(topic)) member.wakeup.notify();
  }

  /** Makes `member` the group's consumer of `topic` unless another member already is. */
  private claim(member: GroupMember, topic: string): boolean {
    const key = `${member.group}\u0000${topic}`;
    const owner = this.owners.get(key);
    if (owner) return owner === member;
    this.owners.set(key, member);
    if (this.offsets.get(member.group, topic) === undefined) {
      const start = member.fromBeginning ? 0 : this.topicFile(topic).length;
      this.offsets.commit(member.group, topic, start);
    }
    return true;
  }

  private topicFile(topic: string): TopicFile {
    const known = this.topics.get(topic);
    if (known) return known;
    assertTopicName(topic);
    const file = TopicFile.open(join(this.topicsDir, `${topic}${LOG_SUFFIX}`), topic);
    this.topics.set(topic, file);
    // A new file's directory entry is durable only once the directory is synced.
    if (this.fsync === 'always') fsyncPath(this.topicsDir);
    return file;
  }

  private syncAll(): void {
    try {
      for (const file of this.topics.values()) file.sync();
    } catch (err) {
      process.emitWarning(err instanceof Error ? err : String(err));
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event log is closed');
  }
}

function assertMessage(message: EventMessage): void {
  if (typeof message.key !== 'string') throw new TypeError('an event key must be a string');
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    if (typeof value !== 'string') throw new TypeError(`event header ${name} must be a string`);
  }
}
