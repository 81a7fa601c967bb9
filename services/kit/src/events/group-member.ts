// One subscription to the embedded log: a loop that hands its group's records to `handle` one at a
// time, retries a failing record with backoff, dead-letters it after maxAttempts, then commits.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PermanentEventFailure, type EventRecord, type SubscribeOptions, type Subscription } from './port.js';
import { checkSubscription } from './subscribe-options.js';
import { backoffMs, pause, Wakeup } from './wakeup.js';

/** What a member needs from the log that runs it. */
export interface ConsumerHost {
  /** The group's next record on `topic` if this member may consume it there, else null. */
  nextRecord(member: GroupMember, topic: string): EventRecord | null;
  commit(group: string, topic: string, nextOffset: number): void;
  deadLetter(record: EventRecord, error: unknown): void;
  /** Called once the loop has ended: gives the member's topics to the group's other members. */
  release(member: GroupMember): void;
}

/** A handler failing for a long time is still retried within a minute. */
const MAX_BACKOFF_MS = 30_000;

type Outcome = { ok: true } | { ok: false; error: unknown };

export class GroupMember implements Subscription {
  readonly group: string;
  readonly topics: readonly string[];
  readonly fromBeginning: boolean;
  /** Notified on a publish to one of the topics, on a release in the group, and on stop. */
  readonly wakeup = new Wakeup();
  private readonly stopping = new AbortController();
  private readonly maxAttempts: number;
  private done: Promise<void> = Promise.resolve();
  /** The topic to look at first, rotated so that a busy topic cannot starve the others. */
  private turn = 0;

  constructor(
    private readonly host: ConsumerHost,
    private readonly options: SubscribeOptions,
    private readonly retryBaseMs: number,
  ) {
    ({
      group: this.group,
      topics: this.topics,
      fromBeginning: this.fromBeginning,
      maxAttempts: this.maxAttempts,
    } = checkSubscription(options));
  }

  start(): void {
    this.done = this.run();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.wakeup.notify();
    await this.done;
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private async run(): Promise<void> {
    let faults = 0;
    while (!this.stopped) {
      try {
        // Between records, let timers and I/O run, however long the backlog.
        await nextTurn();
        await this.step();
        faults = 0;
      } catch (err) {
        // Not the handler (deliver catches that) but the log: a read or a dead-letter append failed.
        faults += 1;
        process.emitWarning(err instanceof Error ? err : String(err));
        await pause(backoffMs(this.retryBaseMs, faults, MAX_BACKOFF_MS), this.stopping.signal);
      }
    }
    this.host.release(this);
  }

  private async step(): Promise<void> {
    if (this.stopped) return;
    const record = this.next();
    if (record) await this.deliver(record);
    else await this.wakeup.wait();
  }

  private next(): EventRecord | null {
    for (let i = 0; i < this.topics.length; i += 1) {
      const index = (this.turn + i) % this.topics.length;
      const topic = this.topics[index];
      const record = topic === undefined ? null : this.host.nextRecord(this, topic);
      if (record) {
        this.turn = index + 1;
        return record;
      }
    }
    return null;
  }

  private async deliver(record: EventRecord): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.attempt(record);
      // A record the handler says can never succeed goes to the dead letters now, not after the
      // whole backoff, so it does not hold up the records behind it.
      const last =
        attempt >= this.maxAttempts || (!outcome.ok && outcome.error instanceof PermanentEventFailure);
      if (!outcome.ok && last) this.host.deadLetter(record, outcome.error);
      if (outcome.ok || last) {
        this.host.commit(this.group, record.topic, record.offset + 1);
        return;
      }
      // Stopping: the record stays uncommitted for whoever consumes the group next.
      if (this.stopped) return;
      await pause(backoffMs(this.retryBaseMs, attempt, MAX_BACKOFF_MS), this.stopping.signal);
      if (this.stopped) return;
    }
  }

  private async attempt(record: EventRecord): Promise<Outcome> {
    try {
      await this.options.handle(record);
      return { ok: true };
    } catch (error) {
      return { ok: false, error };
    }
  }
}
