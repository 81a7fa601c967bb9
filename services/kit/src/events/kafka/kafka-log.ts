// The Kafka event log (production), through @platformatic/kafka (docs/decisions.md, "Kafka
// client"). What the port promises, and how:
// - publish: an idempotent producer (acks from all in-sync replicas, one send in flight at a
//   time), so a retried send neither duplicates nor reorders; records with one key go to one
//   partition (Kafka's Java-compatible murmur2 partitioner, partitioner.ts), which keeps them in
//   order. Headers travel as Kafka record headers, both ways.
// - topics: provisioned with their partition counts before first use (topics.ts); a topic first
//   used without a count gets `partitionsFor(topic)`, by default 1 (one partition keeps every
//   record in order, as the embedded log does).
// - subscribe: a consumer per subscription in the subscription's group, offsets committed per
//   record, a failing record held back and retried for as long as it fails, only a record that
//   can never succeed sent to `<topic>.dlq` (kafka-subscription.ts).
// - outages: consumers whose stream fails are started again for as long as the broker is away,
//   and status() reports every client that is reconnecting (readiness shows it).
// The same contract suite as the embedded log runs against it (test/events.kafka.test.ts).
import { Admin, ProduceAcks, Producer, type SASLOptions } from '@platformatic/kafka';
import { eventBrokerConnected } from '../../metrics.ts';
import { randomUUID } from 'node:crypto';
import type {
  EventLog,
  EventLogStatus,
  EventMessage,
  EventRecord,
  SubscribeOptions,
  Subscription,
} from '../port.ts';
import { DEFAULT_RETRY_BASE_MS, DEFAULT_RETRY_CAP_MS } from '../record-retry.ts';
import { deadLetterTopicOf } from '../topic-name.ts';
import { hasKafkaError, isConnectionFailure } from './kafka-errors.ts';
import {
  KafkaSubscription,
  type ClientSettings,
  type KafkaSubscriptionOptions,
  type SubscriptionHost,
} from './kafka-subscription.ts';
import { javaCompatiblePartitioner } from './partitioner.ts';
import {
  assertMessage,
  deadLetterOf,
  toKafkaMessage,
  withoutValue,
  type FetchedMessage,
  type OutgoingMessage,
} from './records.ts';
import { TopicProvisioner } from './topics.ts';

export interface KafkaEventLogOptions {
  /** host:port of one or more brokers (KAFKA_BROKERS). */
  brokers: string[];
  clientId?: string;
  /** TLS to the brokers (with the system's CAs); managed clusters require it. */
  ssl?: boolean;
  /** SASL credentials (KAFKA_SASL_*); over TLS unless the cluster says otherwise. */
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
  /**
   * Prefix of every topic and group on the cluster (`<namespace>.<topic>`), so several
   * deployments (or test platforms) share one cluster without reading each other's records.
   * Callers and handlers only ever see the unprefixed names.
   */
  namespace?: string;
  /** Partitions of a topic created without an explicit count (dead letters included). Default 1. */
  partitionsFor?: (topic: string) => number;
  /** Copies of each partition of a created topic. Default: min(3, brokers in the cluster). */
  replicationFactor?: number;
  /** First retry delay of a failing handler (and of a consumer start); doubles per attempt. Default 200 ms. */
  retryBaseMs?: number;
  /** The longest retry delay, however long a handler fails or the broker is away. Default 30 s. */
  retryCapMs?: number;
  /**
   * How long the group coordinator waits for a silent member (a crashed process) before handing
   * its partitions to the others. Default 30 s; the broker allows 6 s and up by default.
   */
  sessionTimeoutMs?: number;
  /** How long an idle fetch waits on the broker; bounds how long a stop takes. Default 1000 ms. */
  maxWaitTimeMs?: number;
  /** Retries of one request before it fails (with growing delays, up to 5 s). Default 5. */
  retries?: number;
  connectionTimeoutMs?: number;
  /** Where the log's warnings go (records set aside, consumers restarted). Default: stderr. */
  onLog?: LogSink;
}

type LogSink = (entry: { level: 'error' | 'warn'; namespace: string; message: string }) => void;

const DEFAULT_MAX_WAIT_MS = 1_000;
const DEFAULT_RETRIES = 5;
/** First delay between two tries of a request; doubles per try, up to the cap. */
const REQUEST_RETRY_BASE_MS = 250;
const REQUEST_RETRY_CAP_MS = 5_000;

export async function openKafkaEventLog(options: KafkaEventLogOptions): Promise<EventLog> {
  if (!Array.isArray(options.brokers) || options.brokers.length === 0) {
    throw new RangeError('the Kafka event log needs at least one broker (KAFKA_BROKERS)');
  }
  const onLog = options.onLog ?? writeToStderr;
  const client = clientSettings(options);
  const admin = new Admin({ ...client, clientId: `${client.clientId}-admin` });
  const producer = new Producer<Buffer, Buffer, Buffer, Buffer>({
    ...client,
    idempotent: true,
    acks: ProduceAcks.ALL,
    autocreateTopics: false,
    partitioner: javaCompatiblePartitioner,
  });
  try {
    // The clients connect on first use; this checks the brokers answer before the log is handed out.
    await admin.metadata({ topics: [] });
    await producer.metadata({ topics: [] });
  } catch (error) {
    await Promise.allSettled([producer.close(), admin.close()]);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot connect to Kafka at ${options.brokers.join(',')}: ${reason}`, { cause: error });
  }
  const names = namespaced(options.namespace);
  const partitionsFor = options.partitionsFor ?? (() => 1);
  const topics = new TopicProvisioner(admin, {
    partitionsFor: (topic) => partitionsFor(names.fromKafka(topic)),
    replicationFactor: options.replicationFactor,
    onWarning: (message) => onLog({ level: 'warn', namespace: 'fieldops.topics', message }),
  });
  return new KafkaEventLog(admin, producer, topics, names, {
    client,
    retryBaseMs: options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS,
    retryCapMs: options.retryCapMs ?? DEFAULT_RETRY_CAP_MS,
    maxWaitTimeMs: options.maxWaitTimeMs ?? DEFAULT_MAX_WAIT_MS,
    sessionTimeoutMs: options.sessionTimeoutMs,
    onLog,
  });
}

/** What every client of the log is built with: brokers, TLS, SASL, timeouts and retries. */
function clientSettings(options: KafkaEventLogOptions): ClientSettings {
  return {
    clientId: options.clientId ?? 'fieldops',
    bootstrapBrokers: options.brokers,
    ...(options.connectionTimeoutMs === undefined ? {} : { connectTimeout: options.connectionTimeoutMs }),
    retries: options.retries ?? DEFAULT_RETRIES,
    retryDelay: (_client, _operation, attempt) =>
      Math.min(REQUEST_RETRY_CAP_MS, REQUEST_RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1)),
    ...(options.ssl === true ? { tls: {} } : {}),
    ...(options.sasl === undefined ? {} : { sasl: saslOptions(options.sasl) }),
  };
}

type KafkaProducer = Producer<Buffer, Buffer, Buffer, Buffer>;

class KafkaEventLog implements EventLog, SubscriptionHost {
  private readonly subscriptions = new Set<KafkaSubscription>();
  /** No new subscriptions; publishes still work so records in hand can finish. */
  private closing: Promise<void> | undefined;
  private closed = false;
  /** False from a send that failed for want of the broker until a send succeeds again. */
  private producerConnected = true;

  /** The send in flight: sends go one at a time, so a retried one cannot overtake a later one. */
  private sending: Promise<unknown> = Promise.resolve();

  private readonly admin: Admin;
  private readonly producer: KafkaProducer;
  private readonly topics: TopicProvisioner;
  private readonly names: Names;
  private readonly settings: KafkaSubscriptionOptions & { onLog: LogSink };
  constructor(
    admin: Admin,
    producer: KafkaProducer,
    topics: TopicProvisioner,
    names: Names,
    settings: KafkaSubscriptionOptions & { onLog: LogSink },
  ) {
    this.admin = admin;
    this.producer = producer;
    this.topics = topics;
    this.names = names;
    this.settings = settings;
  }

  status(): EventLogStatus {
    const reconnecting = [...this.subscriptions]
      .filter((subscription) => !subscription.connected)
      .map((subscription) => this.names.fromKafka(subscription.group));
    if (!this.producerConnected) reconnecting.push('producer');
    return { connected: reconnecting.length === 0 && !this.closed, reconnecting };
  }

  async ensureTopic(topic: string, partitions?: number): Promise<void> {
    this.assertOpen();
    await this.topics.ensure(this.names.toKafka(topic), partitions);
  }

  async listTopics(): Promise<string[]> {
    this.assertOpen();
    const all = await this.admin.listTopics({ includeInternals: false });
    return all
      .filter((topic) => !topic.startsWith('__') && this.names.toKafka(this.names.fromKafka(topic)) === topic)
      .map((topic) => this.names.fromKafka(topic))
      .sort();
  }

  /**
   * Reads up to each partition's end as it is now, through a throw-away group that is deleted
   * afterwards (it needs no code of its own); the group commits nothing anyone else reads.
   */
  async readTopic(topic: string): Promise<EventRecord[]> {
    this.assertOpen();
    const kafkaTopic = this.names.toKafka(topic);
    if (!(await this.admin.listTopics()).includes(kafkaTopic)) return [];
    const starts = await this.offsetsAt(kafkaTopic, EARLIEST);
    const ends = await this.offsetsAt(kafkaTopic, LATEST);
    let expected = 0;
    for (const [partition, end] of ends) expected += Number(end - (starts.get(partition) ?? 0n));
    if (expected === 0) return [];
    const records: EventRecord[] = [];
    const group = `fieldops-reader-${randomUUID()}`;
    let allRead: () => void = () => undefined;
    const read = new Promise<void>((resolve) => (allRead = resolve));
    const subscription = await this.subscribe({
      group,
      topics: [topic],
      handle: async (record) => {
        const end = ends.get(record.partition);
        if (end !== undefined && record.offset < Number(end)) records.push(record);
        if (records.length >= expected) allRead();
      },
    });
    try {
      await read;
    } finally {
      await subscription.stop();
      await this.admin.deleteGroups({ groups: [this.names.toKafka(group)] }).catch(() => undefined);
    }
    return records.sort((a, b) => a.partition - b.partition || a.offset - b.offset);
  }

  async publish(topic: string, messages: EventMessage[]): Promise<void> {
    this.assertOpen();
    for (const message of messages) assertMessage(message);
    const kafkaTopic = this.names.toKafka(topic);
    await this.topics.ensure(kafkaTopic);
    if (messages.length === 0) return;
    await this.send(messages.map((message) => toKafkaMessage(kafkaTopic, message)));
  }

  /** Sends one at a time (queued behind the send in flight), all acknowledged by every in-sync replica. */
  private send(messages: OutgoingMessage[]): Promise<void> {
    const sent = this.sending.then(
      () => this.sendNow(messages),
      () => this.sendNow(messages),
    );
    this.sending = sent.catch(() => undefined);
    return sent;
  }

  /**
   * A send, noting whether the producer reaches the broker. The producer connects again by itself
   * on the next send after an outage; the caller (the outbox relay) sends again later.
   */
  private async sendNow(messages: OutgoingMessage[]): Promise<void> {
    try {
      await this.producer.send({ messages, acks: ProduceAcks.ALL });
      this.setProducerConnected(true);
    } catch (error) {
      if (isConnectionFailure(error)) this.setProducerConnected(false);
      throw error;
    }
  }

  private setProducerConnected(connected: boolean): void {
    this.producerConnected = connected;
    eventBrokerConnected.set({ client: 'producer' }, connected ? 1 : 0);
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.assertOpen();
    if (this.closing !== undefined) throw new Error('event log is closing');
    const subscription = new KafkaSubscription(this, this.onCluster(options), this.settings);
    // Consumers may start before anything is published; their topics exist from now on.
    for (const topic of subscription.topics) await this.topics.ensure(topic);
    this.subscriptions.add(subscription);
    try {
      await subscription.start();
    } catch (error) {
      this.subscriptions.delete(subscription);
      throw error;
    }
    return { stop: () => subscription.stop() };
  }

  /** The subscription as the cluster sees it: prefixed names; handlers still see the caller's. */
  private onCluster(options: SubscribeOptions): SubscribeOptions {
    const { names } = this;
    if (!Array.isArray(options.topics)) return options;
    return {
      ...options,
      group:
        typeof options.group === 'string' && options.group !== ''
          ? names.toKafka(options.group)
          : options.group,
      topics: options.topics.map((topic) => names.toKafka(topic)),
      handle: (record) => options.handle({ ...record, topic: names.fromKafka(record.topic) }),
    };
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  // --- SubscriptionHost ------------------------------------------------------------------------------

  async deadLetter(
    topic: string,
    partition: number,
    message: FetchedMessage,
    reason: Record<string, string>,
  ): Promise<void> {
    const dlq = deadLetterTopicOf(topic);
    await this.topics.ensure(dlq);
    const letter = deadLetterOf(dlq, topic, partition, message, reason);
    try {
      await this.send([letter]);
    } catch (failure) {
      // A letter the dead-letter topic refuses for its size would stop the partition for good:
      // the letter goes without the value, saying so, and where the original still is.
      if (!isTooLarge(failure)) throw failure;
      this.report(
        `dead letter of ${topic}/${partition}@${message.offset} is too large for ${dlq}; sent without its value`,
      );
      await this.send([withoutValue(letter)]);
    }
  }

  endOffsets(topic: string): Promise<Map<number, bigint>> {
    return this.offsetsAt(topic, LATEST);
  }

  /** Each partition's earliest or latest offset (ListOffsets with timestamp -2 or -1). */
  private async offsetsAt(topic: string, timestamp: bigint): Promise<Map<number, bigint>> {
    const metadata = await this.admin.metadata({ topics: [topic] });
    const count = metadata.topics.get(topic)?.partitionsCount ?? 0;
    const partitions = Array.from({ length: count }, (_, partitionIndex) => ({ partitionIndex, timestamp }));
    const listed = await this.admin.listOffsets({ topics: [{ name: topic, partitions }] });
    const offsets = new Map<number, bigint>();
    for (const entry of listed) {
      if (entry.name !== topic) continue;
      for (const { partitionIndex, offset } of entry.partitions) offsets.set(partitionIndex, offset);
    }
    return offsets;
  }

  async committedPartitions(group: string, topics: string[]): Promise<Set<string>> {
    const committed = new Set<string>();
    for (const entry of await this.admin.listConsumerGroupOffsets({ groups: [group] })) {
      for (const { name, partitions } of entry.topics) {
        if (!topics.includes(name)) continue;
        for (const { partitionIndex, committedOffset } of partitions)
          if (committedOffset >= 0n) committed.add(`${name}/${partitionIndex}`);
      }
    }
    return committed;
  }

  release(subscription: KafkaSubscription): void {
    this.subscriptions.delete(subscription);
  }

  report(message: string): void {
    this.settings.onLog({ level: 'warn', namespace: 'fieldops.consumer', message });
  }

  // --- lifecycle ----------------------------------------------------------------------------------

  private async shutdown(): Promise<void> {
    try {
      await Promise.allSettled([...this.subscriptions].map((subscription) => subscription.stop()));
    } finally {
      this.closed = true;
      await this.sending;
      await Promise.allSettled([this.producer.close(), this.admin.close()]);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event log is closed');
  }
}

/** The broker refused a record for its size (the topic's max.message.bytes). */
function isTooLarge(error: unknown): boolean {
  return hasKafkaError(error, ['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE']);
}

/** ListOffsets' timestamps for a partition's first and next offset. */
const EARLIEST = -2n;
const LATEST = -1n;

interface Names {
  toKafka(name: string): string;
  fromKafka(name: string): string;
}

function namespaced(namespace: string | undefined): Names {
  if (namespace === undefined || namespace === '')
    return { toKafka: (name) => name, fromKafka: (name) => name };
  const prefix = `${namespace}.`;
  return {
    toKafka: (name) => `${prefix}${name}`,
    fromKafka: (name) => (name.startsWith(prefix) ? name.slice(prefix.length) : name),
  };
}

function writeToStderr(entry: { level: 'error' | 'warn'; namespace: string; message: string }): void {
  process.stderr.write(`kafka ${entry.level} [${entry.namespace}] ${entry.message}\n`);
}

/** The client's SASL options: the mechanism by its protocol name. */
function saslOptions(sasl: NonNullable<KafkaEventLogOptions['sasl']>): SASLOptions {
  const mechanisms = {
    plain: 'PLAIN',
    'scram-sha-256': 'SCRAM-SHA-256',
    'scram-sha-512': 'SCRAM-SHA-512',
  } as const;
  return { mechanism: mechanisms[sasl.mechanism], username: sasl.username, password: sasl.password };
}
