// One subscription on Kafka: a consumer in the subscription's group that hands records to the
// handler one at a time (per member; Kafka spreads a group's partitions over its members), holds a
// failing record back and retries it with capped, jittered back-off for as long as it fails
// (record-retry.ts), dead-letters only a record that can never succeed, and commits each record's
// offset once it is done. Offsets are committed by hand, one record at a time, so a stop or a
// crash redelivers at most the record in hand. A consumer whose stream fails (the broker lost for
// longer than the client's retries) is started again, a fresh client each time, for as long as
// the outage lasts.
//
// The client (@platformatic/kafka) heartbeats and rejoins its group on its own timer, not between
// records, so a record held back for minutes does not cost the member its partitions. What a
// rebalance does change is caught here: records fetched under an older generation of the group
// are left for the stream to fetch again from the committed offsets, and a record held back on a
// partition the member no longer owns is given up uncommitted (its new owner starts at it).
import { Consumer, type ConsumerOptions, type Message, type MessagesStream } from '@platformatic/kafka';
import { eventBrokerConnected, eventConsumerRestarts, eventConsumerWaiting } from '../../metrics.ts';
import { describeError } from '../failure-class.ts';
import type { EventRecord, SubscribeOptions, Subscription } from '../port.ts';
import { decideAfterFailure, type RetryPolicy } from '../record-retry.ts';
import { checkSubscription } from '../subscribe-options.ts';
import { deadLetterTopicOf } from '../topic-name.ts';
import { backoffMs, pause } from '../wakeup.ts';
import { hasKafkaError, isConnectionFailure } from './kafka-errors.ts';
import { fromKafkaMessage, type FetchedMessage } from './records.ts';

type KafkaConsumer = Consumer<Buffer, Buffer, Buffer, Buffer>;
type KafkaStream = MessagesStream<Buffer, Buffer, Buffer, Buffer>;
type KafkaMessage = Message<Buffer, Buffer, Buffer, Buffer>;
/** The connection settings every client of the log shares (brokers, TLS, SASL, retries). */
export type ClientSettings = Omit<ConsumerOptions<Buffer, Buffer, Buffer, Buffer>, 'groupId'>;

/** What a subscription needs from the log that runs it. */
export interface SubscriptionHost {
  /**
   * Publishes the message to `<topic>.dlq` with `reason` (failure headers) added; rejects if the
   * dead letter could not be written.
   */
  deadLetter(
    topic: string,
    partition: number,
    message: FetchedMessage,
    reason: Record<string, string>,
  ): Promise<void>;
  /** The offsets a new group starts from when it starts at the end: each partition's end. */
  endOffsets(topic: string): Promise<Map<number, bigint>>;
  /** Partitions of `topics` the group has committed an offset for. */
  committedPartitions(group: string, topics: string[]): Promise<Set<string>>;
  release(subscription: KafkaSubscription): void;
  /** A warning for the operator (a record set aside, say). */
  report(message: string): void;
}

export interface KafkaSubscriptionOptions {
  client: ClientSettings;
  retryBaseMs: number;
  /** The longest wait between two attempts at a record, or two starts of a consumer. */
  retryCapMs: number;
  /** How long a fetch waits on the broker for new records; bounds how long stop() can take. */
  maxWaitTimeMs: number;
  /** Silence after which the coordinator gives a member's partitions to the others. */
  sessionTimeoutMs?: number;
}

/** kafkajs's default, kept: a crashed member's partitions move on after 30 s. */
const DEFAULT_SESSION_TIMEOUT_MS = 30_000;
/** How often a record held back checks that its member still owns the partition. */
const OWNERSHIP_CHECK_EVERY_MS = 1_000;
/** Records fetched ahead of the one in hand; few, since a rebalance makes them stale. */
const FETCHED_AHEAD = 16;

/** How long a first join waits for a coordinator that is not ready, or a broker that does not answer. */
const START_WAIT_MS = 60_000;
/** The coordinator's answers while it starts or moves: the join is tried again. */
const COORDINATOR_NOT_READY = [
  'COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_LOAD_IN_PROGRESS',
  'NOT_COORDINATOR',
  'REBALANCE_IN_PROGRESS',
];

type Outcome = { ok: true } | { ok: false; error: unknown };

export class KafkaSubscription implements Subscription {
  readonly group: string;
  readonly topics: string[];
  private readonly fromBeginning: boolean;
  private readonly policy: RetryPolicy;
  /** Replaced by a fresh one when its stream fails (revive). */
  private consumer: KafkaConsumer | undefined;
  private stream: KafkaStream | undefined;
  /** False from a lost broker (or before the first join) until the member has joined again. */
  private joined = false;
  private readonly stopping = new AbortController();
  private stopped: Promise<void> | undefined;
  /** `topic/partition` → the next offset to handle, for every partition this member committed on. */
  private readonly committed = new Map<string, bigint>();
  /** Clients that failed outside their stream (a rejoin given up); their records are left. */
  private readonly failed = new WeakSet<KafkaConsumer>();
  /** The record being handled (with its commit), which stop() lets finish before leaving. */
  private inHand: Promise<void> = Promise.resolve();
  /** A restart after a stream failed (revive), which stop() waits for before leaving. */
  private reviving: Promise<void> = Promise.resolve();

  private readonly host: SubscriptionHost;
  private readonly options: SubscribeOptions;
  private readonly settings: KafkaSubscriptionOptions;
  constructor(host: SubscriptionHost, options: SubscribeOptions, settings: KafkaSubscriptionOptions) {
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
  }

  /** Whether the member reaches the broker and holds its place in the group. */
  get connected(): boolean {
    return this.joined;
  }

  private newConsumer(): KafkaConsumer {
    const sessionTimeout = this.settings.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
    const consumer = new Consumer<Buffer, Buffer, Buffer, Buffer>({
      ...this.settings.client,
      groupId: this.group,
      autocommit: false,
      maxWaitTime: this.settings.maxWaitTimeMs,
      sessionTimeout,
      heartbeatInterval: Math.max(100, Math.min(3_000, Math.floor(sessionTimeout / 10))),
      rebalanceTimeout: Math.max(sessionTimeout, 60_000),
    });
    consumer.on('consumer:group:join', () => {
      if (consumer === this.consumer) this.setJoined(true);
    });
    consumer.on('consumer:heartbeat:end', () => {
      if (consumer === this.consumer && !this.joined && consumer.isActive()) this.setJoined(true);
    });
    consumer.on('consumer:heartbeat:error', ({ error }) => {
      // The broker is away: readiness says so while the client tries again.
      if (consumer === this.consumer && isConnectionFailure(error)) this.setJoined(false);
    });
    // A rejoin the client could not complete on its own (the broker away past its retries): the
    // member is out of its group, so its stream ends here and revive() starts a fresh client.
    consumer.on('error', (error: unknown) => this.onClientFailure(consumer, error));
    return consumer;
  }

  private onClientFailure(consumer: KafkaConsumer, error: unknown): void {
    if (consumer !== this.consumer || this.stopping.signal.aborted) return;
    this.failed.add(consumer);
    this.setJoined(false);
    this.stream?.destroy(error instanceof Error ? error : new Error(String(error)));
  }

  private setJoined(joined: boolean): void {
    this.joined = joined;
    eventBrokerConnected.set({ client: this.group }, joined ? 1 : 0);
  }

  /** Resolves once the member has joined its group and its start positions are fixed. */
  async start(): Promise<void> {
    await this.firstRun();
    if (!this.fromBeginning) await this.pinNewPartitionsToEnd();
  }

  /**
   * The first join, tried again while the group's coordinator is not there yet (a broker just
   * started creates its offsets topic first; a restarted one loads it) or the broker does not
   * answer, for up to START_WAIT_MS; then the failure goes to the caller.
   */
  private async firstRun(): Promise<void> {
    const deadline = performance.now() + START_WAIT_MS;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.run();
        return;
      } catch (error) {
        const transient = hasKafkaError(error, COORDINATOR_NOT_READY) || isConnectionFailure(error);
        if (!transient || performance.now() > deadline || this.stopping.signal.aborted) throw error;
        await pause(
          backoffMs(this.settings.retryBaseMs, attempt, this.settings.retryCapMs),
          this.stopping.signal,
        );
      }
    }
  }

  /** A fresh consumer joins the group; its records are handled until its stream ends or fails. */
  private async run(): Promise<void> {
    const consumer = this.newConsumer();
    this.consumer = consumer;
    let stream: KafkaStream;
    try {
      stream = await consumer.consume({
        topics: this.topics,
        mode: 'committed',
        fallbackMode: this.fromBeginning ? 'earliest' : 'latest',
        autocommit: false,
        maxWaitTime: this.settings.maxWaitTimeMs,
        highWaterMark: FETCHED_AHEAD,
      });
    } catch (error) {
      await consumer.close(true).catch(() => undefined);
      throw error;
    }
    this.stream = stream;
    this.setJoined(true);
    void this.handleAll(consumer, stream);
  }

  private async handleAll(consumer: KafkaConsumer, stream: KafkaStream): Promise<void> {
    let failure: unknown = new Error('the stream of records ended');
    try {
      for await (const message of stream) {
        if (this.stopping.signal.aborted) return;
        if (!this.isCurrent(consumer, message)) continue;
        const handled = this.handleMessage(consumer, message);
        this.inHand = handled;
        await handled;
      }
    } catch (error) {
      failure = error;
    }
    if (this.stopping.signal.aborted || consumer !== this.consumer) return;
    this.setJoined(false);
    this.reviving = this.revive(failure);
  }

  /**
   * Whether the record is this member's to handle now: fetched under the group's current
   * generation (a rejoin fetches again from the committed offsets), on a partition the member owns
   * now (a fetch sent before a rebalance can answer after it, for partitions that moved to another
   * member), and not handled already.
   */
  private isCurrent(consumer: KafkaConsumer, message: KafkaMessage): boolean {
    const fetchedIn = (message.metadata.consumer as { generationId?: number } | undefined)?.generationId;
    if (fetchedIn !== undefined && fetchedIn !== consumer.generationId) return false;
    if (!this.owns(consumer, message.topic, message.partition)) return false;
    const next = this.committed.get(`${message.topic}/${message.partition}`);
    return next === undefined || message.offset >= next;
  }

  /** Whether the member still owns the partition (unknown mid-rejoin: it keeps the record). */
  private owns(consumer: KafkaConsumer, topic: string, partition: number): boolean {
    const { assignments } = consumer;
    if (assignments === null || !consumer.isActive()) return true;
    return assignments.some((entry) => entry.topic === topic && entry.partitions.includes(partition));
  }

  /**
   * Starts a consumer again after its stream failed, with capped back-off, for as long as it takes
   * (a broker away for minutes) or until stop() is called. Each start is a fresh client.
   */
  private async revive(error: unknown): Promise<void> {
    this.host.report(`consumer of group ${this.group} stopped (${describeError(error)}); starting it again`);
    for (let attempt = 1; !this.stopping.signal.aborted; attempt += 1) {
      await this.closeClient();
      await pause(
        backoffMs(this.settings.retryBaseMs, attempt, this.settings.retryCapMs),
        this.stopping.signal,
      );
      if (this.stopping.signal.aborted) return;
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
      // The record in hand finishes and commits while the member is still in its group.
      await this.inHand.catch(() => undefined);
      await this.reviving;
      await this.closeClient();
    } finally {
      eventBrokerConnected.remove({ client: this.group });
      this.host.release(this);
    }
  }

  /** Closes the stream and leaves the group (the client gives up its partitions at once). */
  private async closeClient(): Promise<void> {
    const { stream, consumer } = this;
    this.stream = undefined;
    await stream?.close().catch(() => undefined);
    await consumer?.close(true).catch(() => undefined);
  }

  /**
   * A group that starts at the end commits that end at once, as the embedded log does: records
   * published after subscribe() resolved are the group's, even if it stops before they arrive.
   * (Left to the client, "latest" would be resolved at the first fetch, after subscribe resolved.)
   */
  private async pinNewPartitionsToEnd(): Promise<void> {
    const consumer = this.consumer;
    if (consumer === undefined) return;
    const committed = await this.host.committedPartitions(this.group, this.topics);
    const offsets: { topic: string; partition: number; offset: bigint; leaderEpoch: number }[] = [];
    for (const { topic, partitions } of consumer.assignments ?? []) {
      // A partition this member already committed a record on has its position (and a later one).
      const fresh = partitions.filter(
        (partition) =>
          !committed.has(`${topic}/${partition}`) && !this.committed.has(`${topic}/${partition}`),
      );
      if (fresh.length === 0) continue;
      const ends = await this.host.endOffsets(topic);
      for (const partition of fresh)
        offsets.push({ topic, partition, offset: ends.get(partition) ?? 0n, leaderEpoch: -1 });
    }
    if (offsets.length > 0) await consumer.commit({ offsets });
  }

  private async handleMessage(consumer: KafkaConsumer, message: KafkaMessage): Promise<void> {
    const { topic, partition } = message;
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
        const kept = await this.backoff(decision.delayMs, consumer, topic, partition);
        if (!kept || this.stopping.signal.aborted) return;
      }
      await this.commit(consumer, message);
    } finally {
      eventConsumerWaiting.set(waiting, 0);
    }
  }

  /**
   * Waits before a retry; false if the member lost the partition meanwhile (a rebalance): the
   * record is then left uncommitted, and whoever owns the partition now starts at it.
   */
  private async backoff(
    ms: number,
    consumer: KafkaConsumer,
    topic: string,
    partition: number,
  ): Promise<boolean> {
    const until = performance.now() + ms;
    for (let left = ms; left > 0 && !this.stopping.signal.aborted; left = until - performance.now()) {
      await pause(Math.min(left, OWNERSHIP_CHECK_EVERY_MS), this.stopping.signal);
      if (consumer !== this.consumer || this.failed.has(consumer)) return false;
      if (!this.owns(consumer, topic, partition)) return false;
    }
    return true;
  }

  /** One attempt: a record that cannot be read fails as permanently as a handler's refusal. */
  private async attempt(topic: string, partition: number, message: FetchedMessage): Promise<Outcome> {
    try {
      const record: EventRecord = fromKafkaMessage(topic, partition, message);
      await this.options.handle(record);
      return { ok: true };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /** Commits "next to read" = offset + 1 for this group and partition. */
  private async commit(consumer: KafkaConsumer, message: KafkaMessage): Promise<void> {
    const { topic, partition } = message;
    const next = message.offset + 1n;
    this.committed.set(`${topic}/${partition}`, next);
    await consumer.commit({
      offsets: [{ topic, partition, offset: next, leaderEpoch: message.leaderEpoch }],
    });
  }
}
