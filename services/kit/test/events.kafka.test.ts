// The event log contract against a real Kafka (KAFKA_BROKERS), plus what only the Kafka adapter
// promises: topics provisioned with their partition counts, dead letters that keep the original
// bytes and say where they came from. Run with `npm run test:adapters` (docs/production-adapters.md).
import { Admin, ConfigResourceTypes, Producer, stringSerializers } from '@platformatic/kafka';
import { openKafkaEventLog, type KafkaEventLogOptions } from '../src/events/kafka/kafka-log.ts';
import type { EventLog } from '../src/events/port.ts';
import {
  consume,
  describeEventLogContract,
  numbered,
  uniqueName,
  waitFor,
} from './contracts/events.contract.ts';

const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((broker) => broker.trim())
  .filter((broker) => broker !== '');
// Without KAFKA_BROKERS the suite shows up as skipped, with the reason in its title. With it set the
// suite always runs, so an unreachable broker fails instead of silently skipping.
const describeWithKafka = brokers.length > 0 ? describe : describe.skip;
const suiteTitle =
  brokers.length > 0 ? 'kafka event log' : 'kafka event log (skipped: KAFKA_BROKERS is not set)';

/** Writes records as a foreign producer would: raw bytes, past the adapter's own encoding. */
async function sendRaw(topic: string, messages: { key: string; value: string }[]): Promise<void> {
  const producer = new Producer({
    clientId: 'fieldops-test-raw',
    bootstrapBrokers: brokers,
    serializers: stringSerializers,
  });
  try {
    await producer.send({ messages: messages.map((message) => ({ ...message, topic })) });
  } finally {
    await producer.close();
  }
}

const open = (options: Partial<KafkaEventLogOptions> = {}): Promise<EventLog> =>
  openKafkaEventLog({
    brokers,
    clientId: 'fieldops-test',
    retryBaseMs: 5,
    retryCapMs: 20,
    maxWaitTimeMs: 200,
    ...options,
  });

describeWithKafka(suiteTitle, () => {
  // Topic and group names are unique per test, so the suite shares one broker with anything else.
  describeEventLogContract('kafka', async () => ({
    log: await open(),
    reopen: () => open(),
    cleanup: async () => {},
  }));

  describe('kafka adapter', () => {
    let log: EventLog;
    const admin = new Admin({ clientId: 'fieldops-test-admin', bootstrapBrokers: brokers });

    afterAll(async () => {
      await admin.close();
    });

    beforeEach(async () => {
      log = await open({ partitionsFor: (topic) => (topic.startsWith('wide.') ? 4 : 1) });
    });

    afterEach(async () => {
      await log.close();
    });

    /** Closes the suite's log and opens one whose warnings the test reads. */
    const reopenCollectingWarnings = async (): Promise<string[]> => {
      const warnings: string[] = [];
      await log.close();
      log = await open({ onLog: (entry) => warnings.push(entry.message) });
      return warnings;
    };

    /** An operator's dead-letter topic for `topic` that takes records of at most `maxBytes`. */
    const createDeadLetterTopic = async (topic: string, maxBytes: number): Promise<string> => {
      const dlqTopic = `${topic}.dlq`;
      const configs = [{ name: 'max.message.bytes', value: String(maxBytes) }];
      await admin.createTopics({ topics: [{ topic: dlqTopic, partitions: 1, replicas: 1 }], configs });
      return dlqTopic;
    };

    /** A consumer of `topic` and one of its dead letters, once each has a record. */
    const consumeWithLetters = async (topic: string) => {
      const consumer = await consume(log, { group: uniqueName('g'), topics: [topic] });
      const dlq = await consume(log, { group: uniqueName('dlq'), topics: [`${topic}.dlq`] });
      try {
        await waitFor(
          () => consumer.records.length >= 1 && dlq.records.length >= 1,
          'the good record and the letter',
        );
      } catch (error) {
        await Promise.all([consumer.stop(), dlq.stop()]);
        throw error;
      }
      return { consumer, dlq };
    };

    const partitionsOf = async (topic: string): Promise<number> => {
      const metadata = await admin.metadata({ topics: [topic], forceUpdate: true });
      return metadata.topics.get(topic)?.partitionsCount ?? 0;
    };

    it('creates topics with the partition count asked for, or the planned default', async () => {
      const explicit = uniqueName('explicit');
      const planned = uniqueName('wide');
      const plain = uniqueName('plain');
      await log.ensureTopic(explicit, 3);
      await log.ensureTopic(planned);
      await log.publish(plain, numbered([0]));
      expect(await partitionsOf(explicit)).toBe(3);
      expect(await partitionsOf(planned)).toBe(4);
      expect(await partitionsOf(plain)).toBe(1);
      // Asking again (another process starting) changes nothing.
      await log.ensureTopic(explicit, 3);
      expect(await partitionsOf(explicit)).toBe(3);
    });

    it("puts each key on the partition Kafka's Java client picks, headers and all", async () => {
      // Ground truth from org.apache.kafka.common.utils.Utils (events.kafka-partitioner.test.ts).
      const topic = uniqueName('keyed');
      const expected: Record<string, number> = { 'tenant-a': 3, 'tenant-b': 10, acme: 0, abcd: 8, '': 9 };
      await log.ensureTopic(topic, 12);
      await log.publish(
        topic,
        Object.keys(expected).map((key) => ({ key, value: { key }, headers: { traceparent: `tp-${key}` } })),
      );
      const consumer = await consume(log, { group: uniqueName('g'), topics: [topic], fromBeginning: true });
      try {
        await waitFor(() => consumer.records.length >= 5, 'the keyed records', 30_000);
        for (const record of consumer.records) {
          expect(record.partition).toBe(expected[record.key]);
          expect(record.headers).toEqual({ traceparent: `tp-${record.key}` });
        }
      } finally {
        await consumer.stop();
      }
    }, 60_000);

    const committedOffset = async (group: string, topic: string): Promise<string | undefined> => {
      const [entry] = await admin.listConsumerGroupOffsets({ groups: [group] });
      const offset = entry?.topics
        .find((listed) => listed.name === topic)
        ?.partitions.find((partition) => partition.partitionIndex === 0)?.committedOffset;
      return offset === undefined || offset < 0n ? undefined : String(offset);
    };

    it("commits each handled record's offset for its group, and nothing for a record left unhandled", async () => {
      const topic = uniqueName('commits');
      const group = uniqueName('g');
      await log.publish(topic, numbered([0, 1, 2]));
      const consumer = await consume(log, {
        group,
        topics: [topic],
        maxAttempts: 1_000,
        handle: async (record) => {
          if ((record.value as { n: number }).n === 2) throw new Error('not yet');
        },
      });
      await waitFor(() => consumer.records.length >= 2, 'the first two records');
      await consumer.stop();
      expect(await committedOffset(group, topic)).toBe('2');
    });

    it('pins a new group that starts at the end to that end at once', async () => {
      const topic = uniqueName('pinned');
      const group = uniqueName('g');
      await log.publish(topic, numbered([0, 1]));
      const consumer = await consume(log, { group, topics: [topic], fromBeginning: false });
      await consumer.stop();
      expect(await committedOffset(group, topic)).toBe('2');
      // Published while nobody consumed: still the group's.
      await log.publish(topic, numbered([2]));
      const again = await consume(log, { group, topics: [topic], fromBeginning: false });
      await waitFor(() => again.records.length >= 1, 'the record published in between');
      expect(again.ns()).toEqual([2]);
      await again.stop();
    });

    it('spreads a topic of four partitions over the members of a group, each record handled once', async () => {
      const topic = uniqueName('wide');
      const group = uniqueName('g');
      await log.ensureTopic(topic);
      const first = await consume(log, { group, topics: [topic] });
      const second = await consume(log, { group, topics: [topic] });
      try {
        const tenants = Array.from({ length: 8 }, (_, i) => `tenant-${i}`);
        await log.publish(
          topic,
          tenants.flatMap((key, i) => [0, 1, 2].map((j) => ({ key, value: { n: i * 3 + j } }))),
        );
        await waitFor(() => first.records.length + second.records.length >= 24, 'every record');
        const handled = [...first.records, ...second.records];
        expect(handled.map((record) => (record.value as { n: number }).n).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 24 }, (_, n) => n),
        );
        // The members split the partitions between them, and each key stays on one of them.
        const partitionsOf = (records: typeof handled): Set<number> =>
          new Set(records.map((r) => r.partition));
        const overlap = [...partitionsOf(first.records)].filter((p) => partitionsOf(second.records).has(p));
        expect(overlap).toEqual([]);
        expect(partitionsOf(handled).size).toBeGreaterThan(1);
      } finally {
        await first.stop();
        await second.stop();
      }
    });

    it("hands a leaving member's partitions to the one that stays, from its last commit", async () => {
      const topic = uniqueName('wide');
      const group = uniqueName('g');
      await log.ensureTopic(topic);
      const staying = await consume(log, { group, topics: [topic] });
      const leaving = await consume(log, { group, topics: [topic] });
      const keys = Array.from({ length: 8 }, (_, i) => `tenant-${i}`);
      await log.publish(
        topic,
        keys.map((key, n) => ({ key, value: { n } })),
      );
      await waitFor(() => staying.records.length + leaving.records.length >= 8, 'the first round');
      await leaving.stop();
      await log.publish(
        topic,
        keys.map((key, i) => ({ key, value: { n: 8 + i } })),
      );
      await waitFor(() => staying.records.length + leaving.records.length >= 16, 'the second round');
      await staying.stop();
      const ns = [...staying.ns(), ...leaving.ns()].sort((a, b) => a - b);
      expect(ns).toEqual(Array.from({ length: 16 }, (_, n) => n));
      expect(leaving.ns().every((n) => n < 8)).toBe(true);
    });

    it('refuses illegal topic names and partition counts before reaching the broker', async () => {
      await expect(log.ensureTopic('no spaces')).rejects.toThrow(/illegal topic name/);
      await expect(log.ensureTopic(uniqueName('t'), 0)).rejects.toThrow(/partitions/);
      await expect(log.publish(uniqueName('t'), [{ key: 7 as unknown as string, value: 1 }])).rejects.toThrow(
        /key must be a string/,
      );
    });

    it('dead-letters a record whose value is not JSON, with its bytes and origin, and says so', async () => {
      const topic = uniqueName('raw');
      const warnings = await reopenCollectingWarnings();
      await log.ensureTopic(topic, 1);
      await sendRaw(topic, [
        { key: 'bad', value: 'not json {' },
        { key: 'k1', value: '{"n":1}' },
      ]);

      const { consumer, dlq } = await consumeWithLetters(topic);
      try {
        expect(consumer.ns()).toEqual([1]);
        const [letter] = dlq.records;
        expect(letter?.key).toBe('bad');
        expect(letter?.headers).toMatchObject({
          'x-original-topic': topic,
          'x-original-partition': '0',
          'x-original-offset': '0',
        });
        expect(letter?.headers['x-error']).toContain('does not hold a JSON value');
        // The reader of the dead letters gets the bytes that could not be parsed, as text.
        expect(letter?.value).toBe('not json {');
        expect(warnings).toContainEqual(expect.stringMatching(new RegExp(`set record ${topic}/0@0 `)));
      } finally {
        await consumer.stop();
        await dlq.stop();
      }
    }, 60_000);

    it('still sets aside a record whose dead letter is too large for the dead-letter topic', async () => {
      const topic = uniqueName('huge');
      await log.ensureTopic(topic, 1);
      // An operator's dead-letter topic that takes smaller records than its source topic.
      await createDeadLetterTopic(topic, 1000);
      await sendRaw(topic, [
        { key: 'huge', value: 'x'.repeat(5_000) },
        { key: 'k1', value: '{"n":1}' },
      ]);

      const { consumer, dlq } = await consumeWithLetters(topic);
      try {
        expect(consumer.ns()).toEqual([1]);
        const [letter] = dlq.records;
        expect(letter?.value).toBeNull();
        expect(letter?.headers).toMatchObject({ 'x-original-topic': topic, 'x-original-offset': '0' });
        expect(letter?.headers['x-value-dropped']).toMatch(/^5000 bytes/);
      } finally {
        await consumer.stop();
        await dlq.stop();
      }
    }, 60_000);

    it('starts a consumer again whose stream failed, and goes on once the cause is fixed', async () => {
      const topic = uniqueName('stuck');
      const warnings = await reopenCollectingWarnings();
      await log.ensureTopic(topic, 1);
      // A dead-letter topic too small for any letter: setting a record aside fails outright.
      const dlqTopic = await createDeadLetterTopic(topic, 100);
      await sendRaw(topic, [
        { key: 'bad', value: 'not json {' },
        { key: 'k1', value: '{"n":1}' },
      ]);

      const consumer = await consume(log, { group: uniqueName('g'), topics: [topic] });
      try {
        await waitFor(
          () => warnings.some((warning) => warning.includes('starting it again')),
          'the consumer to be started again',
          30_000,
        );
        expect(consumer.records).toEqual([]);
        // The operator fixes the dead-letter topic; the consumer, still trying, gets past the record.
        await admin.alterConfigs({
          validateOnly: false,
          resources: [
            {
              resourceType: ConfigResourceTypes.TOPIC,
              resourceName: dlqTopic,
              configs: [{ name: 'max.message.bytes', value: '1048588' }],
            },
          ],
        });
        await waitFor(() => consumer.records.length >= 1, 'the record behind the bad one', 60_000);
        expect(consumer.ns()).toEqual([1]);
      } finally {
        await consumer.stop();
      }
    }, 120_000);
  });
});

describe('kafka event log startup', () => {
  it('fails fast, naming the brokers, when nothing listens', async () => {
    const started = Date.now();
    const failure = await openKafkaEventLog({
      brokers: ['127.0.0.1:1'],
      retries: 0,
      connectionTimeoutMs: 300,
      onLog: () => {},
    }).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure?.message).toContain('Cannot connect to Kafka at 127.0.0.1:1');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses an empty broker list', async () => {
    await expect(openKafkaEventLog({ brokers: [] })).rejects.toThrow(/at least one broker/);
  });
});
