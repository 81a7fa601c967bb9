// Every tenant stays on its partition across the move from kafkajs to @platformatic/kafka: the
// partition of a key is the Java client's, toPositive(murmur2(UTF-8 bytes)) % partitions. The
// expected partitions below are ground truth computed by Kafka's own Java client
// (org.apache.kafka.common.utils.Utils.murmur2 and toPositive, kafka-clients 4.1.1, the jar of
// the broker `npm run kafka` runs), and kafkajs 2.2.4's DefaultPartitioner gave the same for every
// key before it was removed (docs/decisions.md, "Kafka client").
import { partitionOf } from '../src/events/kafka/partitioner.ts';

const COUNTS = [1, 3, 4, 6, 12] as const;

/** Key → its partition for 1, 3, 4, 6 and 12 partitions, from the Java client. */
const JAVA_PARTITIONS: [string, number[]][] = [
  ['', [0, 0, 1, 3, 9]],
  ['tenant-a', [0, 0, 3, 3, 3]],
  ['tenant-b', [0, 1, 2, 4, 10]],
  ['acme', [0, 0, 0, 0, 0]],
  ['ten_01HZX3Q8Y6K2M4N5P6R7S8T9VW', [0, 2, 3, 5, 11]],
  ['3f6c1a52-9d7e-4b1f-a2c3-5e6f7a8b9c0d', [0, 0, 3, 3, 3]],
  ['ünïcödé-kunde', [0, 1, 1, 1, 1]],
  ['a', [0, 1, 0, 4, 4]],
  ['ab', [0, 2, 2, 2, 2]],
  ['abc', [0, 0, 3, 3, 3]],
  ['abcd', [0, 2, 0, 2, 8]],
  ['abcde', [0, 1, 1, 1, 1]],
  ['x'.repeat(100), [0, 1, 0, 4, 4]],
];

describe('the Kafka partitioner', () => {
  it.each(JAVA_PARTITIONS)('puts key %j where the Java client (and kafkajs) put it', (key, expected) => {
    expect(COUNTS.map((count) => partitionOf(key, count))).toEqual(expected);
  });
});
