// One subscription on Kafka: a consumer in the subscription's group that hands records to the
// handler one at a time (per member; Kafka spreads a group's partitions over its members), holds a
// failing record back and retries it with capped, jittered back-off for as long as it fails
// (record-retry.ts), dead-letters only a record that can never succeed, and commits each record's
// offset once it is done. Offsets are committed by hand, one record at a time, so a stop or a
// crash redelivers at most the record in hand. A consumer that loses the broker is started again,
// a fresh kafkajs consumer each time, for as long as the outage lasts.
import type { Consumer, EachMessagePayload, Kafka, KafkaMessage } from 'kafkajs';
import { eventBrokerConnected, eventConsumerRestarts, eventConsumerWaiting } from '../../metrics.js';
import { describeError } from '../failure-class.js';
import type { EventRecord, SubscribeOptions, Subscription } from '../port.js';
import { decideAfterFailure, type RetryPolicy } from '../record-retry.js';
import { checkSubscription } from '../subscribe-options.js';
import { deadLetterTopicOf } from '../topic-name.js';
import { backoffMs, pause } from '../wakeup.js';
import { fromKafkaMessage } from './records.js';

/** What a subscription needs from the log that runs it. */
export interface SubscriptionHost {
  /**
   * Publishes the message to `<topic>.dlq` with `reason` (failure headers) added; rejects if the
   * dead letter could not be written.
   */
  deadLetter(
    topic: string,
    partition: number,
    message: KafkaMessage,
    reason: Record<string, string>,
  ): Promise<void>;
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
  /** The longest wait between two attempts at a record, or two starts of a consumer. */
  retryCapMs: number;
  /** How long a fetch waits on the broker for new records; bounds how long stop() can take. */
  maxWaitTimeMs: number;
  /** Silence after which the coordinator gives a member's partitions to the others. */
  sessionTimeoutMs?: number;
  /** kafkajs's retries of one request before it gives the consumer up (revive takes over). */
  retries: number;
}

/** Well inside kafkajs's default session timeout (30 s), like its own 3 s heartbeat interval. */
const HEARTBEAT_EVERY_MS = 3_000;

type Outcome = { ok: true } | { ok: false; error: unknown };

export class KafkaSubscription implements Subscription {
  readonly group: string;
  readonly topics: string[];
  private readonly fromBeginning: boolean;
  private readonly policy: RetryPolicy;
  /** Replaced by a fresh one when kafkajs gives a consumer up (revive). */
  private consumer: Consumer;
  /** False from a crash (the broker lost, say) until the member has joined its group again. */
  private joined = false;
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

  private readonly kafka: Kafka;
  private readonly host: SubscriptionHost;
  private readonly options: SubscribeOptions;
  private readonly settings: KafkaSubscriptionOptions;
  constructor(
    kafka: Kafka,
    host: SubscriptionHost,
    options: SubscribeOptions,
    settings: KafkaSubscriptionOptions,
  ) {
    this.kafka = kafka;
    this.host = host;
    this.options = options;
    this.settings = settings;
    const checked = checkSubscription(options);
    ({ group: this.group, topics: this.topics, fromBeginning: this.fromBeginning } = checked);
    this.policy = {
      baseMs: settings.retryBaseMs,
      capMs: settings.retryCapMs,
      maxAttempts: checked.maxAttempts,
    };
    this.consumer = this.newConsumer();
  }

  /** Whether the member reaches the broker and holds its place in the group. */
  get connected(): boolean {
    return this.joined;
  }

  private newConsumer(): Consumer {
    const { settings } = this;
    const consumer = this.kafka.consumer({
      groupId: this.group,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: settings.maxWaitTimeMs,
      // Every crash comes to revive(), which starts a fresh consumer with capped back-off for as
      // long as it takes; kafkajs's own restart reuses a consumer, and gives up on some errors.
      retry: { retries: settings.retries, restartOnFailure: async () => false },
      ...(settings.sessionTimeoutMs === undefined
        ? {}
        : {
            sessionTimeout: settings.sessionTimeoutMs,
            heartbeatInterval: Math.max(100, Math.floor(settings.sessionTimeoutMs / 10)),
          }),
    });
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      if (consumer !== this.consumer) return;
      this.assignment = event.payload.memberAssignment;
      this.setJoined(true);
    });
    consumer.on(consumer.events.CRASH, (event) => {
      if (consumer !== this.consumer) return;
      this.setJoined(false);
      // kafkajs leaves a crashed consumer stopped (restartOnFailure above); a subscription never
      // stops by itself, so it starts again here.
      if (!event.payload.restart && !this.stopping.signal.aborted) {
        this.reviving = this.revive(event.payload.error);
      }
    });
    return consumer;
  }

  private setJoined(joined: boolean): void {
    this.joined = joined;
    eventBrokerConnected.set({ client: this.group }, joined ? 1 : 0);
  }

  /** Resolves once the member has joined its group and its start positions are fixed. */
  async start(): Promise<void> {
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

  /**
   * Starts a consumer again after kafkajs gave up on one, with capped back-off, for as long as it
   * takes (a broker away for minutes) or until stop() is called. Each start is a fresh kafkajs
   * consumer: one that failed to connect keeps state that can stop it from ever running again.
   */
  private async revive(error: Error): Promise<void> {
    this.host.report(`consumer of group ${this.group} stopped (${describeError(error)}); starting it again`);
    for (let attempt = 1; !this.stopping.signal.aborted; attempt += 1) {
      await pause(
        backoffMs(this.settings.retryBaseMs, attempt, this.settings.retryCapMs),
        this.stopping.signal,
      );
      if (this.stopping.signal.aborted) return;
      const previous = this.consumer;
      await previous.disconnect().catch(() => undefined);
      this.consumer = this.newConsumer();
      try {
        await this.run();
        eventConsumerRestarts.inc({ client: this.group, result: 'started' });
        return;
      } catch (failure) {
        eventConsumerRestarts.inc({ client: this.group, result: 'failed' });
        this.host.report(
          `consumer of group ${this.group} not started yet (attempt ${attempt}, trying again): ${describeError(failure)}`,
        );
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
      eventBrokerConnected.remove({ client: this.group });
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

  private async handleMessage(payload: EachMessagePayload): Promise<void> {
    const { topic, partition, message } = payload;
    const waiting = { group: this.group, topic };
    try {
      for (let attempt = 1; ; attempt += 1) {
        const outcome = await this.attempt(topic, partition, message);
        if (outcome.ok) break;
        const decision = decideAfterFailure(outcome.error, attempt, this.policy, waiting);
        if (decision.action === 'dead-letter') {
          this.host.report(
            `set record ${topic}/${partition}@${message.offset} (group ${this.group}) aside into ` +
              `${deadLetterTopicOf(topic)}: ${decision.headers['x-error'] ?? ''}`,
          );
          await this.host.deadLetter(topic, partition, message, decision.headers);
          break;
        }
        // Stopping: the record stays uncommitted for whoever consumes the partition next.
        if (this.stopping.signal.aborted) return;
        eventConsumerWaiting.set(waiting, 1);
        await this.backoff(decision.delayMs, payload);
        if (this.stopping.signal.aborted) return;
      }
      await this.commit(topic, partition, message.offset);
    } finally {
      eventConsumerWaiting.set(waiting, 0);
    }
  }

  /**
   * Waits before a retry, heartbeating every few seconds: kafkajs only heartbeats between records,
   * and a member silent for the session timeout (30 s) loses its partitions to a rebalance.
   */
  private async backoff(ms: number, { heartbeat }: EachMessagePayload): Promise<void> {
    const until = performance.now() + ms;
    for (let left = ms; left > 0 && !this.stopping.signal.aborted; left = until - performance.now()) {
      await pause(Math.min(left, HEARTBEAT_EVERY_MS), this.stopping.signal);
      try {
        await heartbeat();
      } catch (error) {
        // The group is rebalancing: this member may lose the partition, so the record is left
        // uncommitted and the error goes to kafkajs, which rejoins; whoever owns the partition
        // then starts at this record. Any other failure (the broker away) is ridden out here.
        if (isRebalance(error)) throw error;
      }
    }
  }

  /** One attempt: a record that cannot be read fails as permanently as a handler's refusal. */
  private async attempt(topic: string, partition: number, message: KafkaMessage): Promise<Outcome> {
    try {
      const record: EventRecord = fromKafkaMessage(topic, partition, message);
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

/** kafkajs's answers that say this member must rejoin its group before it commits anything. */
const REBALANCE_TYPES = new Set(['REBALANCE_IN_PROGRESS', 'UNKNOWN_MEMBER_ID', 'ILLEGAL_GENERATION']);

function isRebalance(error: unknown): boolean {
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type === 'string' && REBALANCE_TYPES.has(type);
}
