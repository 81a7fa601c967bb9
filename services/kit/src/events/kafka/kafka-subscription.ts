// One subscription on Kafka: a consumer in the subscription's group that hands records to the
// handler one at a time (per member; Kafka spreads a group's partitions over its members), retries
// a failing record with backoff, dead-letters it after maxAttempts (or at once for a
// PermanentEventFailure), and commits each record's offset once it is done. Offsets are committed
// by hand, one record at a time, so a stop or a crash redelivers at most the record in hand.
import type { Consumer, EachMessagePayload, Kafka, KafkaMessage } from 'kafkajs';
import { checkSubscription } from '../subscribe-options.js';
import {
  PermanentEventFailure,
  type EventRecord,
  type SubscribeOptions,
  type Subscription,
} from '../port.js';
import { deadLetterTopicOf } from '../topic-name.js';
import { backoffMs, pause } from '../wakeup.js';
import { describeError, fromKafkaMessage } from './records.js';

/** What a subscription needs from the log that runs it. */
export interface SubscriptionHost {
  /** Publishes the message to `<topic>.dlq`; rejects if the dead letter could not be written. */
  deadLetter(topic: string, partition: number, message: KafkaMessage, error: unknown): Promise<void>;
  /** The offsets a new group starts from when it starts at the end: each partition's end. */
  endOffsets(topic: string): Promise<Map<number, string>>;
  /** Partitions of `topics` the group has committed an offset for. */
  committedPartitions(group: string, topics: string[]): Promise<Set<string>>;
  release(subscription: KafkaSubscription): void;
  /** A warning for the operator (a record set aside, say). */
  report(message: string): void;
}

export interface KafkaSubscriptionOptions {
  retryBaseMs: number;
  /** How long a fetch waits on the broker for new records; bounds how long stop() can take. */
  maxWaitTimeMs: number;
  /** Silence after which the coordinator gives a member's partitions to the others. */
  sessionTimeoutMs?: number;
}

/** A handler failing for a long time is still retried every 30 s. */
const MAX_BACKOFF_MS = 30_000;
/** Well inside kafkajs's default session timeout (30 s), like its own 3 s heartbeat interval. */
const HEARTBEAT_EVERY_MS = 3_000;

type Outcome = { ok: true } | { ok: false; error: unknown };

export class KafkaSubscription implements Subscription {
  readonly group: string;
  readonly topics: string[];
  private readonly fromBeginning: boolean;
  private readonly maxAttempts: number;
  private readonly consumer: Consumer;
  private readonly stopping = new AbortController();
  private stopped: Promise<void> | undefined;
  /** `topic/partition` of every partition this member has committed a record on. */
  private readonly committed = new Set<string>();
  /** The partitions this member was given at its last join, per topic. */
  private assignment: Record<string, number[]> = {};
  /** The record being handled (with its commit), which stop() lets finish before leaving. */
  private inHand: Promise<void> = Promise.resolve();
  /** A restart after kafkajs gave up (revive), which stop() waits for before leaving. */
  private reviving: Promise<void> = Promise.resolve();

  constructor(
    kafka: Kafka,
    private readonly host: SubscriptionHost,
    private readonly options: SubscribeOptions,
    private readonly settings: KafkaSubscriptionOptions,
  ) {
    ({
      group: this.group,
      topics: this.topics,
      fromBeginning: this.fromBeginning,
      maxAttempts: this.maxAttempts,
    } = checkSubscription(options));
    this.consumer = kafka.consumer({
      groupId: this.group,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: settings.maxWaitTimeMs,
      ...(settings.sessionTimeoutMs === undefined
        ? {}
        : {
            sessionTimeout: settings.sessionTimeoutMs,
            heartbeatInterval: Math.max(100, Math.floor(settings.sessionTimeoutMs / 10)),
          }),
    });
  }

  /** Resolves once the member has joined its group and its start positions are fixed. */
  async start(): Promise<void> {
    this.consumer.on(this.consumer.events.GROUP_JOIN, (event) => {
      this.assignment = event.payload.memberAssignment;
    });
    this.consumer.on(this.consumer.events.CRASH, (event) => {
      // kafkajs restarts the consumer after a retriable error, and leaves it stopped for good
      // after any other; a subscription never stops by itself, so it starts again here.
      if (!event.payload.restart && !this.stopping.signal.aborted) {
        this.reviving = this.revive(event.payload.error);
      }
    });
    await this.run();
    if (!this.fromBeginning) await this.pinNewPartitionsToEnd();
  }

  private async run(): Promise<void> {
    await this.consumer.connect();
    try {
      await this.consumer.subscribe({ topics: this.topics, fromBeginning: this.fromBeginning });
      await this.consumer.run({ autoCommit: false, eachMessage: (payload) => this.onMessage(payload) });
    } catch (error) {
      await this.consumer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  /** Starts the consumer kafkajs gave up on again, with backoff, until it runs or stop() is called. */
  private async revive(error: Error): Promise<void> {
    this.host.report(`consumer of group ${this.group} stopped (${describeError(error)}); starting it again`);
    for (let attempt = 1; !this.stopping.signal.aborted; attempt += 1) {
      await pause(backoffMs(this.settings.retryBaseMs, attempt, MAX_BACKOFF_MS), this.stopping.signal);
      if (this.stopping.signal.aborted) return;
      try {
        await this.run();
        return;
      } catch (failure) {
        this.host.report(`consumer of group ${this.group} did not start again: ${describeError(failure)}`);
      }
    }
  }

  stop(): Promise<void> {
    this.stopped ??= this.shutdown();
    return this.stopped;
  }

  private async shutdown(): Promise<void> {
    this.stopping.abort();
    try {
      // The record in hand finishes and commits while the consumer still runs: kafkajs drops a
      // commit made once disconnect() has begun (its runner is no longer "running"), so waiting
      // inside disconnect() would hand a finished record to the next member again.
      await this.inHand.catch(() => undefined);
      await this.reviving;
      await this.consumer.disconnect();
    } finally {
      this.host.release(this);
    }
  }

  /**
   * A group that starts at the end commits that end at once, as the embedded log does: records
   * published after subscribe() resolved are the group's, even if it stops before they arrive.
   * (Left to kafkajs, "latest" would be resolved at the first fetch, after subscribe resolved.)
   */
  private async pinNewPartitionsToEnd(): Promise<void> {
    const committed = await this.host.committedPartitions(this.group, this.topics);
    const offsets: { topic: string; partition: number; offset: string }[] = [];
    for (const [topic, partitions] of Object.entries(this.assignment)) {
      // A partition this member already committed a record on has its position (and a later one).
      const fresh = partitions.filter(
        (partition) =>
          !committed.has(`${topic}/${partition}`) && !this.committed.has(`${topic}/${partition}`),
      );
      if (fresh.length === 0) continue;
      const ends = await this.host.endOffsets(topic);
      for (const partition of fresh) offsets.push({ topic, partition, offset: ends.get(partition) ?? '0' });
    }
    if (offsets.length > 0) await this.consumer.commitOffsets(offsets);
  }

  private onMessage(payload: EachMessagePayload): Promise<void> {
    // Stopping: records fetched after stop() stay uncommitted for whoever consumes them next.
    if (this.stopping.signal.aborted) return Promise.resolve();
    const handled = this.handleMessage(payload);
    this.inHand = handled;
    return handled;
  }

  private async handleMessage({ topic, partition, message, heartbeat }: EachMessagePayload): Promise<void> {
    let record: EventRecord;
    try {
      record = fromKafkaMessage(topic, partition, message);
    } catch (error) {
      // Not JSON: no handler and no retry can make sense of it. It is reported and set aside, and
      // the partition goes on with the next record.
      this.host.report(
        `skipped record ${topic}/${partition}@${message.offset} (group ${this.group}) into ` +
          `${deadLetterTopicOf(topic)}: ${describeError(error)}`,
      );
      await this.host.deadLetter(topic, partition, message, error);
      await this.commit(topic, partition, message.offset);
      return;
    }
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.attempt(record);
      // A record the handler says can never succeed goes to the dead letters now, not after the
      // whole backoff, so it does not hold up the records behind it.
      const last =
        attempt >= this.maxAttempts || (!outcome.ok && outcome.error instanceof PermanentEventFailure);
      if (!outcome.ok && last) await this.host.deadLetter(topic, partition, message, outcome.error);
      if (outcome.ok || last) {
        await this.commit(topic, partition, message.offset);
        return;
      }
      // Stopping: the record stays uncommitted for whoever consumes the partition next.
      if (this.stopping.signal.aborted) return;
      await this.backoff(backoffMs(this.settings.retryBaseMs, attempt, MAX_BACKOFF_MS), heartbeat);
      if (this.stopping.signal.aborted) return;
    }
  }

  /**
   * Waits before a retry, heartbeating every few seconds: kafkajs only heartbeats between records,
   * and a member silent for the session timeout (30 s) loses its partitions to a rebalance.
   */
  private async backoff(ms: number, heartbeat: () => Promise<void>): Promise<void> {
    const until = Date.now() + ms;
    for (let left = ms; left > 0 && !this.stopping.signal.aborted; left = until - Date.now()) {
      await pause(Math.min(left, HEARTBEAT_EVERY_MS), this.stopping.signal);
      // A failed heartbeat (a rebalance under way) is kafkajs's to handle after this record.
      await heartbeat().catch(() => undefined);
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

  /** Commits "next to read" = offset + 1 for this group and partition. */
  private async commit(topic: string, partition: number, offset: string): Promise<void> {
    const next = (BigInt(offset) + 1n).toString();
    this.committed.add(`${topic}/${partition}`);
    await this.consumer.commitOffsets([{ topic, partition, offset: next }]);
  }
}
