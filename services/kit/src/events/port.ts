// The event log port: topics of keyed records, consumer groups with committed offsets.
// Adapters: embedded (in-process, persisted under FIELDOPS_DATA_DIR) and Kafka (production).
// Delivery is at least once; consumers make their effect idempotent (by event id).

export interface EventMessage {
  key: string;
  value: unknown;
  headers?: Record<string, string>;
}

export interface EventRecord {
  topic: string;
  partition: number;
  offset: number;
  key: string;
  value: unknown;
  headers: Record<string, string>;
  /** ISO time the record was appended. */
  timestamp: string;
}

export interface SubscribeOptions {
  /** Consumer group: members share the work; committed offsets are per group. */
  group: string;
  topics: string[];
  /** Where a group with no committed offset starts. Default: beginning. */
  fromBeginning?: boolean;
  /**
   * Handles one record. Resolving commits its offset. Throwing holds the record (and its
   * partition) back and retries it with capped, jittered back-off for as long as it fails
   * (failure-class.ts); only a PermanentEventFailure (or an unparseable record) goes to
   * `<topic>.dlq` at once, with its reason in the headers, and the group moves on.
   */
  handle: (record: EventRecord) => Promise<void>;
  /**
   * Attempts after which a record whose failure is *unclassified* (neither retryable nor
   * permanent) is dead-lettered. Default: no limit. Retryable failures are never counted.
   */
  maxAttempts?: number;
}

/**
 * Thrown by a handler for a record that no retry can fix (it is malformed, say): the record goes
 * to `<topic>.dlq` at once instead of after every backoff attempt.
 */
export class PermanentEventFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentEventFailure';
  }
}

export interface Subscription {
  /** Stops after the record in hand; its offset is committed only if it was handled. */
  stop(): Promise<void>;
}

/** Whether the log's clients reach their broker; false while one reconnects (an outage). */
export interface EventLogStatus {
  connected: boolean;
  /** Clients (consumer groups, `producer`) that are reconnecting, for the readiness body. */
  reconnecting: string[];
}

export interface EventLog {
  /** Whether every client reaches the broker now (the embedded log always does). */
  status(): EventLogStatus;
  ensureTopic(topic: string, partitions?: number): Promise<void>;
  /** Every topic the log holds (unprefixed names), for operators' tools (dead letters). */
  listTopics(): Promise<string[]>;
  /**
   * Every record `topic` holds now, by partition then offset, read without a consumer group (no
   * offset of anyone's moves). For operators' tools on small topics (dead letters), not for work.
   */
  readTopic(topic: string): Promise<EventRecord[]>;
  /** Appends in order; resolves once the records are durable. Records with one key stay in order. */
  publish(topic: string, messages: EventMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  close(): Promise<void>;
}
