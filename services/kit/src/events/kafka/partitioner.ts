// Which partition a keyed record goes to. Every tenant's events are keyed by tenant, and per-key
// order holds only while a key stays on one partition, so the choice must never move a key: it is
// Kafka's Java client's (toPositive(murmur2(key bytes)) % partitions), which kafkajs used too.
// @platformatic/kafka's `compatibilityPartitioner` is that murmur2 with the sign bit masked; the
// client takes the result modulo the partition count. events.kafka-partitioner.test.ts holds the
// partitions the Java client computes for fixed keys.
import { compatibilityPartitioner } from '@platformatic/kafka';

export const javaCompatiblePartitioner = compatibilityPartitioner;

/** The partition of `key` among `partitions`, as the producer picks it. */
export function partitionOf(key: string, partitions: number): number {
  const hash = compatibilityPartitioner({ topic: '' }, Buffer.from(key, 'utf8'));
  return hash % partitions;
}
