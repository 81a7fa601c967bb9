// The Kafka event log (production), through kafkajs. What the port promises, and how:
// - publish: an idempotent producer (acks from all in-sync replicas, one request in flight per
//   broker), so a retried send neither duplicates nor reorders; records with one key go to one
//   partition (Kafka's Java-compatible murmur2 partitioner), which keeps them in order.
// - topics: provisioned with their partition counts before first use (topics.ts); a topic first
//   used without a count gets `partitionsFor(topic)`, by default 1 (one partition keeps every
//   record in order, as the embedded log does).
// - subscribe: a consumer per subscription in the subscription's group, offsets committed per
//   record, a failing record held back and retried for as long as it fails, only a record that
//   can never succeed sent to `<topic>.dlq` (kafka-subscription.ts).
// - outages: consumers that kafkajs gives up on are started again for as long as the broker is
//   away, and status() reports every client that is reconnecting (readiness shows it).
// The same contract suite as the embedded log runs against it (test/events.kafka.test.ts).
import {
  Kafka,
  logLevel,
  Partitioners,
  type Admin,
  type KafkaMessage,
  type LogEntry,
  type Producer,
  type SASLOptions,
} from 'kafkajs';
import { eventBrokerConnected } from '../../metrics.js';
import { randomUUID } from 'node:crypto';
import type {
  EventLog,
  EventLogStatus,
  EventMessage,
  EventRecord,
  SubscribeOptions,
  Subscription,
} from '../port.js';
import { DEFAULT_RETRY_BASE_MS, DEFAULT_RETRY_CAP_MS } from '../record-retry.js';
import { deadLetterTopicOf } from '../topic-name.js';
import {
  KafkaSubscription,
  type KafkaSubscriptionOptions,
  type SubscriptionHost,
} from './kafka-subscription.js';
import { assertMessage, deadLetterOf, toKafkaMessage, withoutValue } from './records.js';
import { patchKafkaRequestQueueTimer } from './request-queue-timer.js';
import { TopicProvisioner } from './topics.js';

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
   * its partitions to the others. Default kafkajs's 30 s; the broker allows 6 s and up by default.
   */
  sessionTimeoutMs?: number;
  /** How long an idle fetch waits on the broker; bounds how long a stop takes. Default 1000 ms. */
  maxWaitTimeMs?: number;
  /** Connection attempts before open() and sends give up (kafkajs retries with backoff). Default 5. */
  retries?: number;
  connectionTimeoutMs?: number;
  /** Where kafkajs's warnings and errors go. Default: stderr, one line each. */
  onLog?: LogSink;
}

type LogSink = (entry: { level: 'error' | 'warn'; namespace: string; message: string }) => void;

const DEFAULT_MAX_WAIT_MS = 1_000;
const DEFAULT_RETRIES = 5;

export async function openKafkaEventLog(options: KafkaEventLogOptions): Promise<EventLog> {
  if (!Array.isArray(options.brokers) || options.brokers.length === 0) {
    throw new RangeError('the Kafka event log needs at least one broker (KAFKA_BROKERS)');
  }
  const onLog = options.onLog ?? writeToStderr;
  const retries = options.retries ?? DEFAULT_RETRIES;
  patchKafkaRequestQueueTimer();
  const kafka = new Kafka({
    clientId: options.clientId ?? 'fieldops',
    brokers: options.brokers,
    connectionTimeout: options.connectionTimeoutMs,
    ssl: options.ssl ?? false,
    ...(options.sasl === undefined ? {} : { sasl: saslOptions(options.sasl) }),
    retry: { retries },
    logLevel: logLevel.WARN,
    logCreator: () => (entry: LogEntry) => {
      // The bounded producer retries above are a decision, not a problem to report on every start.
      if (entry.log.message.startsWith('Limiting retries for the idempotent producer')) return;
      if (isTransientResponse(entry)) return;
      const level = entry.level === logLevel.ERROR ? 'error' : 'warn';
      onLog({ level, namespace: entry.namespace, message: entry.log.message });
    },
  });
  const admin = kafka.admin();
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
    // Bounded, unlike kafkajs's idempotent default (retry forever): a send that gives up rejects,
    // and the outbox relay publishes it again later (consumers dedupe by event id).
    // (kafkajs requires at least one retry for an idempotent producer.)
    retry: { retries: Math.max(1, retries) },
  });
  try {
    await admin.connect();
    await producer.connect();
  } catch (error) {
    await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
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
  return new KafkaEventLog(kafka, admin, producer, topics, names, {
    retryBaseMs: options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS,
    retryCapMs: options.retryCapMs ?? DEFAULT_RETRY_CAP_MS,
    maxWaitTimeMs: options.maxWaitTimeMs ?? DEFAULT_MAX_WAIT_MS,
    sessionTimeoutMs: options.sessionTimeoutMs,
    retries,
    onLog,
  });
}

class KafkaEventLog implements EventLog, SubscriptionHost {
  private readonly subscriptions = new Set<KafkaSubscription>();
  /** No new subscriptions; publishes still work so records in hand can finish. */
  private closing: Promise<void> | undefined;
  private closed = false;
  /** False from a send that failed for want of the broker until a send succeeds again. */
  private producerConnected = true;

  private readonly kafka: Kafka;
  private readonly admin: Admin;
  private readonly producer: Producer;
  private readonly topics: TopicProvisioner;
  private readonly names: Names;
  private readonly settings: KafkaSubscriptionOptions & { onLog: LogSink };
  constructor(
    kafka: Kafka,
    admin: Admin,
    producer: Producer,
    topics: TopicProvisioner,
    names: Names,
    settings: KafkaSubscriptionOptions & { onLog: LogSink },
  ) {
    this.kafka = kafka;
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
    const all = await this.admin.listTopics();
    return all
      .filter((topic) => !topic.startsWith('__') && this.names.toKafka(this.names.fromKafka(topic)) === topic)
      .map((topic) => this.names.fromKafka(topic))
      .sort();
  }

  /**
   * Reads up to each partition's end as it is now, through a throw-away group that is deleted
   * afterwards (kafkajs has no group-less fetch); the group commits nothing anyone else reads.
   */
  async readTopic(topic: string): Promise<EventRecord[]> {
    this.assertOpen();
    const kafkaTopic = this.names.toKafka(topic);
    if (!(await this.admin.listTopics()).includes(kafkaTopic)) return [];
    const ends = await this.admin.fetchTopicOffsets(kafkaTopic);
    const expected = ends.reduce((sum, end) => sum + Number(end.high) - Number(end.low), 0);
    if (expected === 0) return [];
    const records: EventRecord[] = [];
    const group = `fieldops-reader-${randomUUID()}`;
    let allRead: () => void = () => undefined;
    const read = new Promise<void>((resolve) => (allRead = resolve));
    const subscription = await this.subscribe({
      group,
      topics: [topic],
      handle: async (record) => {
        const end = ends.find((entry) => entry.partition === record.partition);
        if (end !== undefined && record.offset < Number(end.high)) records.push(record);
        if (records.length >= expected) allRead();
      },
    });
    try {
      await read;
    } finally {
      await subscription.stop();
      await this.admin.deleteGroups([this.names.toKafka(group)]).catch(() => undefined);
    }
    return records.sort((a, b) => a.partition - b.partition || a.offset - b.offset);
  }

  async publish(topic: string, messages: EventMessage[]): Promise<void> {
    this.assertOpen();
    for (const message of messages) assertMessage(message);
    const kafkaTopic = this.names.toKafka(topic);
    await this.topics.ensure(kafkaTopic);
    if (messages.length === 0) return;
    await this.send(() =>
      this.producer.send({ topic: kafkaTopic, acks: -1, messages: messages.map(toKafkaMessage) }),
    );
  }

  /**
   * A send, noting whether the producer reaches the broker. kafkajs's producer connects again by
   * itself on the next send after an outage; the caller (the outbox relay) sends again later.
   */
  private async send<T>(sending: () => Promise<T>): Promise<T> {
    try {
      const sent = await sending();
      this.setProducerConnected(true);
      return sent;
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
    const subscription = new KafkaSubscription(this.kafka, this, this.onCluster(options), this.settings);
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
    message: KafkaMessage,
    reason: Record<string, string>,
  ): Promise<void> {
    const dlq = deadLetterTopicOf(topic);
    await this.topics.ensure(dlq);
    const letter = deadLetterOf(topic, partition, message, reason);
    try {
      await this.send(() => this.producer.send({ topic: dlq, acks: -1, messages: [letter] }));
    } catch (failure) {
      // A letter the dead-letter topic refuses for its size would stop the partition for good:
      // the letter goes without the value, saying so, and where the original still is.
      if (!isTooLarge(failure)) throw failure;
      this.report(
        `dead letter of ${topic}/${partition}@${message.offset} is too large for ${dlq}; sent without its value`,
      );
      await this.producer.send({ topic: dlq, acks: -1, messages: [withoutValue(letter, message)] });
    }
  }

  async endOffsets(topic: string): Promise<Map<number, string>> {
    const offsets = await this.admin.fetchTopicOffsets(topic);
    return new Map(offsets.map((entry) => [entry.partition, entry.high]));
  }

  async committedPartitions(group: string, topics: string[]): Promise<Set<string>> {
    const committed = new Set<string>();
    for (const { topic, partitions } of await this.admin.fetchOffsets({ groupId: group, topics })) {
      for (const { partition, offset } of partitions)
        if (Number(offset) >= 0) committed.add(`${topic}/${partition}`);
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
      await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event log is closed');
  }
}

/**
 * kafkajs logs every error answer of the broker, also the ones it retries as a matter of course: a
 * topic or a group coordinator that a KRaft broker is still bringing up (seconds after a create or
 * a restart). Those are left out; the same errors, once retries give up, still reach the log.
 */
const TRANSIENT_ANSWERS = [
  'This server does not host this topic-partition',
  'There is no leader for this topic-partition',
  "The coordinator is loading and hence can't process requests",
  'The coordinator is not available',
  'This is not the correct coordinator',
  'This server is not the leader for that topic-partition',
  'The group is rebalancing, so a rejoin is needed',
  'Topic with this name already exists',
];

function isTransientResponse(entry: LogEntry): boolean {
  const error = (entry.log as { error?: unknown }).error;
  return (
    entry.namespace === 'Connection' &&
    entry.log.message.startsWith('Response ') &&
    typeof error === 'string' &&
    TRANSIENT_ANSWERS.some((answer) => error.startsWith(answer))
  );
}

/** The send failed for want of a broker (not for the record): kafkajs's connection errors. */
function isConnectionFailure(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = (cause as { cause?: unknown }).cause) {
    if (cause.name === 'KafkaJSConnectionError' || cause.name === 'KafkaJSNumberOfRetriesExceeded')
      return true;
    if (cause.name === 'KafkaJSRequestTimeoutError' || cause.name === 'KafkaJSBrokerNotFound') return true;
  }
  return false;
}

/** The broker refused a record for its size (the topic's max.message.bytes). */
function isTooLarge(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = (cause as { cause?: unknown }).cause) {
    const type = (cause as { type?: unknown }).type;
    if (type === 'MESSAGE_TOO_LARGE' || type === 'RECORD_LIST_TOO_LARGE') return true;
  }
  return false;
}

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

/** kafkajs's SASL options, one variant per mechanism. */
function saslOptions(sasl: NonNullable<KafkaEventLogOptions['sasl']>): SASLOptions {
  const { username, password } = sasl;
  if (sasl.mechanism === 'plain') return { mechanism: 'plain', username, password };
  if (sasl.mechanism === 'scram-sha-256') return { mechanism: 'scram-sha-256', username, password };
  return { mechanism: 'scram-sha-512', username, password };
}
