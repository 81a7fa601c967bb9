// One subscription to the embedded log: a loop that hands its group's records to `handle` one at a
// time, holds a failing record back and retries it for as long as it fails (record-retry.ts),
// dead-letters only a record that can never succeed, then commits.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { eventConsumerWaiting } from '../metrics.ts';
import type { EventRecord, SubscribeOptions, Subscription } from './port.ts';
import { decideAfterFailure, type RetryPolicy } from './record-retry.ts';
import { checkSubscription } from './subscribe-options.ts';
import { backoffMs, pause, Wakeup } from './wakeup.ts';

/** What a member needs from the log that runs it. */
export interface ConsumerHost {
  /** The group's next record on `topic` if this member may consume it there, else null. */
  nextRecord(member: GroupMember, topic: string): EventRecord | null;
  commit(group: string, topic: string, nextOffset: number): void;
  /** Appends the record to `<topic>.dlq` with `reason` (failure headers) added to its headers. */
  deadLetter(record: EventRecord, reason: Record<string, string>): void;
  /** Called once the loop has ended: gives the member's topics to the group's other members. */
  release(member: GroupMember): void;
}

type Outcome = { ok: true } | { ok: false; error: unknown };

export class GroupMember implements Subscription {
  readonly group: string;
  readonly topics: readonly string[];
  readonly fromBeginning: boolean;
  /** Notified on a publish to one of the topics, on a release in the group, and on stop. */
  readonly wakeup = new Wakeup();
  private readonly stopping = new AbortController();
  private readonly policy: RetryPolicy;
  private done: Promise<void> = Promise.resolve();
  /** The topic to look at first, rotated so that a busy topic cannot starve the others. */
  private turn = 0;

  private readonly host: ConsumerHost;
  private readonly options: SubscribeOptions;
  constructor(host: ConsumerHost, options: SubscribeOptions, retry: Omit<RetryPolicy, 'maxAttempts'>) {
    this.host = host;
    this.options = options;
    const checked = checkSubscription(options);
    ({ group: this.group, topics: this.topics, fromBeginning: this.fromBeginning } = checked);
    this.policy = { ...retry, maxAttempts: checked.maxAttempts };
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
        await pause(backoffMs(this.policy.baseMs, faults, this.policy.capMs), this.stopping.signal);
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
    const waiting = { group: this.group, topic: record.topic };
    try {
      for (let attempt = 1; ; attempt += 1) {
        const outcome = await this.attempt(record);
        if (outcome.ok) break;
        const decision = decideAfterFailure(outcome.error, attempt, this.policy, waiting);
        if (decision.action === 'dead-letter') {
          this.host.deadLetter(record, decision.headers);
          break;
        }
        // Stopping: the record stays uncommitted for whoever consumes the group next.
        if (this.stopped) return;
        eventConsumerWaiting.set(waiting, 1);
        await pause(decision.delayMs, this.stopping.signal);
        if (this.stopped) return;
      }
      this.host.commit(this.group, record.topic, record.offset + 1);
    } finally {
      eventConsumerWaiting.set(waiting, 0);
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
