// Provisions topics with their partition counts before anything is published to or read from them,
// instead of relying on the broker's auto-creation (off in most managed clusters, and it would
// give every topic the broker's default count). Each topic is looked at once per process.
//
// An existing topic is never changed: adding partitions moves keys to other partitions, which
// breaks the per-key order consumers rely on, so a topic with fewer partitions than asked for is
// reported (onWarning) for an operator to decide.
import type { Admin } from '@platformatic/kafka';
import { hasKafkaError } from './kafka-errors.ts';
import { assertTopicName } from '../topic-name.ts';

export interface TopicPlan {
  /** Partitions of a topic created without an explicit count. */
  partitionsFor: (topic: string) => number;
  /** Copies of each partition; undefined: min(3, brokers in the cluster). */
  replicationFactor?: number;
  onWarning: (message: string) => void;
}

const MAX_DEFAULT_REPLICATION = 3;
/** How long a created topic may take to be served by every broker. */
const METADATA_WAIT_MS = 30_000;

/** The broker's answers while a new topic's metadata spreads; anything else is a real failure. */
function isNotYetServed(error: unknown): boolean {
  return hasKafkaError(error, ['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE']);
}

export class TopicProvisioner {
  /** Topic → its partition count, once created or found. */
  private readonly known = new Map<string, Promise<number>>();
  private replication: Promise<number> | undefined;

  private readonly admin: Admin;
  private readonly plan: TopicPlan;
  constructor(admin: Admin, plan: TopicPlan) {
    this.admin = admin;
    this.plan = plan;
  }

  async ensure(topic: string, partitions?: number): Promise<void> {
    assertTopicName(topic);
    if (partitions !== undefined && (!Number.isInteger(partitions) || partitions < 1)) {
      throw new RangeError(`a topic needs a whole number of partitions of at least 1, not ${partitions}`);
    }
    let count = this.known.get(topic);
    if (count === undefined) {
      count = this.provision(topic, partitions ?? this.defaultPartitions(topic));
      this.known.set(topic, count);
      // A failed attempt (the cluster was unreachable) is tried again by the next call.
      count.catch(() => this.known.delete(topic));
    }
    const actual = await count;
    if (partitions !== undefined && actual < partitions) {
      this.plan.onWarning(
        `topic ${topic} has ${actual} partitions, fewer than the ${partitions} asked for; it is left ` +
          'as it is (adding partitions would reorder keys): recreate it or raise its count by hand',
      );
    }
  }

  private defaultPartitions(topic: string): number {
    const count = this.plan.partitionsFor(topic);
    if (!Number.isInteger(count) || count < 1)
      throw new RangeError(`bad partition count for ${topic}: ${count}`);
    return count;
  }

  /** Creates the topic, or finds the one that already exists; resolves with its partition count. */
  private async provision(topic: string, numPartitions: number): Promise<number> {
    const replicationFactor = await this.replicationFactor();
    // A KRaft broker answers UNKNOWN_TOPIC_OR_PARTITION for a moment after creating a topic, so
    // the wait for its leaders is ours (servedPartitions). A topic that exists already is found.
    try {
      await this.admin.createTopics({
        topics: [{ topic, partitions: numPartitions, replicas: replicationFactor }],
      });
    } catch (error) {
      if (!hasKafkaError(error, ['TOPIC_ALREADY_EXISTS'])) throw error;
    }
    return this.servedPartitions(topic);
  }

  /** Waits until every partition of the topic has a leader; resolves with their count. */
  private async servedPartitions(topic: string): Promise<number> {
    const deadline = Date.now() + METADATA_WAIT_MS;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const metadata = await this.admin.metadata({ topics: [topic], forceUpdate: true });
        const partitions = metadata.topics.get(topic)?.partitions ?? [];
        if (
          partitions.length > 0 &&
          partitions.every((partition) => partition !== undefined && partition.leader >= 0)
        ) {
          return partitions.length;
        }
      } catch (error) {
        if (!isNotYetServed(error) || Date.now() > deadline) throw error;
      }
      if (Date.now() > deadline) throw new Error(`topic ${topic} has no leader after ${METADATA_WAIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(50 * attempt, 500)));
    }
  }

  /**
   * The factor is explicit, as it was before (the broker's default, -1, would also do on a recent
   * broker): the configured one, or up to three copies as the cluster allows.
   */
  private replicationFactor(): Promise<number> {
    if (this.plan.replicationFactor !== undefined) return Promise.resolve(this.plan.replicationFactor);
    this.replication ??= this.admin.metadata({ topics: [] }).then(
      ({ brokers }) => Math.max(1, Math.min(MAX_DEFAULT_REPLICATION, brokers.size)),
      (error: unknown) => {
        this.replication = undefined;
        throw error;
      },
    );
    return this.replication;
  }
}
