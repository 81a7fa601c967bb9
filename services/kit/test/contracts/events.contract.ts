// The event log contract: what every adapter of the port (src/events/port.ts) must do. Each
// adapter's test file calls describeEventLogContract with a way to open a log.
//
// Topic and group names are unique per test, so the suite also runs against a shared broker.
// Tests wait for records instead of sleeping, and prove that nothing else arrives by publishing a
// sentinel afterwards: records of a topic arrive in order, so once the sentinel is in, anything
// that was going to arrive before it has.
import { randomUUID } from 'node:crypto';
import { AppError } from '../../src/errors.ts';
import { registry } from '../../src/metrics.ts';
import {
  PermanentEventFailure,
  type EventLog,
  type EventMessage,
  type EventRecord,
  type SubscribeOptions,
} from '../../src/events/port.ts';

export interface EventLogHarness {
  log: EventLog;
  /** Opens a new log over the same storage; the suite has closed the previous log first. */
  reopen?: () => Promise<EventLog>;
  /** Runs after the suite has closed the current log. */
  cleanup: () => Promise<void>;
}

/** A subscription whose handled records the test can inspect. */
export interface Consumer {
  /** Records whose handler resolved, in the order they were handled. */
  records: EventRecord[];
  /** The `n` of each handled record's value (the suite publishes `{ n }` values). */
  ns(): number[];
  /** Idempotent, so the suite's teardown can stop whatever a test left running. */
  stop(): Promise<void>;
}

export const uniqueName = (prefix: string): string => `${prefix}.${randomUUID().slice(0, 8)}`;

/** Messages whose values are `{ n }`, keyed `k<n>` unless a key is given. */
export const numbered = (ns: number[], key?: string): EventMessage[] =>
  ns.map((n) => ({ key: key ?? `k${n}`, value: { n } }));

export const nOf = (record: EventRecord): number => (record.value as { n: number }).n;

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** fieldops_event_retries_total of a group (any topic, any class), from the process's registry. */
async function retriesCounted(group: string): Promise<number> {
  const metric = await registry.getSingleMetric('fieldops_event_retries_total')?.get();
  return (metric?.values ?? [])
    .filter((value) => String(value.labels['group']).endsWith(group))
    .reduce((sum, value) => sum + value.value, 0);
}

type ConsumeOptions = Omit<SubscribeOptions, 'handle'> & { handle?: SubscribeOptions['handle'] };

/** Subscribes; `records` collects what the handler (by default: accept everything) handled. */
export async function consume(log: EventLog, options: ConsumeOptions): Promise<Consumer> {
  const records: EventRecord[] = [];
  const handle = options.handle;
  const subscription = await log.subscribe({
    ...options,
    handle: async (record) => {
      if (handle) await handle(record);
      records.push(record);
    },
  });
  let stopping: Promise<void> | undefined;
  return {
    records,
    ns: () => records.map(nOf),
    stop: () => (stopping ??= subscription.stop()),
  };
}

export function describeEventLogContract(adapterName: string, open: () => Promise<EventLogHarness>): void {
  describe(`event log contract: ${adapterName}`, () => {
    let harness: EventLogHarness;
    /** The log under test; the reopen test replaces it. */
    let log: EventLog;
    const consumers: Consumer[] = [];
    const track = async (options: ConsumeOptions): Promise<Consumer> => {
      const consumer = await consume(log, options);
      consumers.push(consumer);
      return consumer;
    };

    beforeEach(async () => {
      harness = await open();
      log = harness.log;
    });

    afterEach(async () => {
      for (const consumer of consumers.splice(0)) await consumer.stop();
      await log.close();
      await harness.cleanup();
    });

    it('delivers the records of a topic in publish order, with key, value, headers and time', async () => {
      const topic = uniqueName('order');
      await log.ensureTopic(topic, 1);
      const before = Date.now();
      await log.publish(topic, numbered([0, 1]));
      await log.publish(topic, [{ key: 'k2', value: { n: 2 }, headers: { 'x-trace': 'abc' } }]);
      await log.publish(topic, numbered([3, 4, 5]));

      const consumer = await track({ group: uniqueName('g'), topics: [topic] });
      await waitFor(() => consumer.records.length >= 6, 'six records');

      expect(consumer.ns()).toEqual([0, 1, 2, 3, 4, 5]);
      const offsets = consumer.records.map((record) => record.offset);
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
      expect(new Set(offsets).size).toBe(6);
      const [first] = consumer.records;
      expect(first).toMatchObject({ topic, key: 'k0', value: { n: 0 }, headers: {} });
      expect(consumer.records[2]?.headers).toEqual({ 'x-trace': 'abc' });
      expect(Date.parse(first?.timestamp ?? '')).toBeGreaterThanOrEqual(before - 1000);
    });

    it('hands values back as the JSON that was published', async () => {
      const topic = uniqueName('json');
      const values = [
        { nested: { list: [1, 'two', null, true], empty: {} } },
        'a string with a\nnewline, "quotes" and ünïcødé ✓',
        42.5,
        false,
        null,
        [{ a: 1 }, { b: [2] }],
      ];
      await log.publish(
        topic,
        values.map((value, i) => ({ key: `k${i}`, value })),
      );
      const consumer = await track({ group: uniqueName('g'), topics: [topic] });
      await waitFor(() => consumer.records.length >= values.length, 'every value');
      expect(consumer.records.map((record) => record.value)).toEqual(values);
    });

    it('gives every group every record, across the topics it subscribes to', async () => {
      const [a, b] = [uniqueName('a'), uniqueName('b')];
      await log.publish(a, numbered([0, 1, 2]));
      await log.publish(b, numbered([10, 11]));
      const one = await track({ group: uniqueName('one'), topics: [a, b] });
      const two = await track({ group: uniqueName('two'), topics: [a, b] });
      await log.publish(a, numbered([3]));

      for (const consumer of [one, two]) {
        await waitFor(() => consumer.records.length >= 6, 'six records per group');
        const byTopic = (topic: string): number[] =>
          consumer.records.filter((record) => record.topic === topic).map(nOf);
        expect(byTopic(a)).toEqual([0, 1, 2, 3]);
        expect(byTopic(b)).toEqual([10, 11]);
      }
    });

    it('resumes a group after close and reopen with exactly the records it had not handled', async () => {
      // Adapters whose storage cannot outlive a log instance have nothing to show here.
      const { reopen } = harness;
      if (!reopen) return;
      const topic = uniqueName('resume');
      const group = uniqueName('g');
      await log.publish(topic, numbered([0, 1, 2]));
      const first = await track({ group, topics: [topic] });
      await waitFor(() => first.records.length >= 3, 'the first three');
      await first.stop();
      await log.publish(topic, numbered([3, 4]));
      await log.close();

      log = await reopen();
      await log.publish(topic, numbered([5]));
      const second = await track({ group, topics: [topic] });
      await waitFor(() => second.records.length >= 3, 'the records after the commit');
      await log.publish(topic, numbered([6]));
      await waitFor(() => second.records.length >= 4, 'the sentinel');

      expect(first.ns()).toEqual([0, 1, 2]);
      expect(second.ns()).toEqual([3, 4, 5, 6]);
    });

    it('stop() waits for the record in hand, which then counts as handled', async () => {
      const topic = uniqueName('stop');
      const group = uniqueName('g');
      let release = (): void => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let started = false;
      const first = await track({
        group,
        topics: [topic],
        handle: async () => {
          started = true;
          await gate;
        },
      });
      await log.publish(topic, numbered([0]));
      await waitFor(() => started, 'the handler to start');

      let stopped = false;
      const stopping = first.stop().then(() => (stopped = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(first.ns()).toEqual([0]);

      await log.publish(topic, numbered([1]));
      const second = await track({ group, topics: [topic] });
      await waitFor(() => second.records.length >= 1, 'the next record');
      expect(second.ns()).toEqual([1]);
    });

    it('retries a failing handler until it succeeds, so the record takes effect once', async () => {
      const topic = uniqueName('retry');
      const attempts = new Map<number, number>();
      const consumer = await track({
        group: uniqueName('g'),
        topics: [topic],
        maxAttempts: 5,
        handle: async (record) => {
          const attempt = (attempts.get(nOf(record)) ?? 0) + 1;
          attempts.set(nOf(record), attempt);
          if (nOf(record) === 1 && attempt < 3) throw new Error('transient failure');
        },
      });
      await log.publish(topic, numbered([0, 1, 2]));
      await waitFor(() => consumer.records.length >= 3, 'all three handled');
      await log.publish(topic, numbered([3]));
      await waitFor(() => consumer.records.length >= 4, 'the sentinel');

      expect(consumer.ns()).toEqual([0, 1, 2, 3]);
      expect(attempts.get(1)).toBe(3);
      expect(attempts.get(0)).toBe(1);
    });

    it('holds a record whose dependency is away, past many times the old 8-attempt limit, then applies it once and in order', async () => {
      const topic = uniqueName('outage');
      const group = uniqueName('g');
      // Three times the attempts after which every subscription used to give a record up.
      const outage = 3 * 8;
      let attempts = 0;
      const consumer = await track({
        group,
        topics: [topic],
        handle: async (record) => {
          if (nOf(record) !== 1) return;
          attempts += 1;
          if (attempts <= outage) throw new AppError('unavailable', 'The store is not answering.');
        },
      });
      const retriesBefore = await retriesCounted(group);
      await log.publish(topic, numbered([0, 1, 2]));
      await waitFor(() => consumer.records.length >= 3, 'every record, once the store is back', 30_000);
      await log.publish(topic, numbered([3]));
      await waitFor(() => consumer.records.length >= 4, 'the sentinel');

      expect(consumer.ns()).toEqual([0, 1, 2, 3]);
      expect(attempts).toBe(outage + 1);
      expect((await retriesCounted(group)) - retriesBefore).toBe(outage);
      // Nothing was set aside: the dead-letter topic holds no record.
      await log.publish(`${topic}.dlq`, numbered([99]));
      const dlq = await track({ group: uniqueName('dlq'), topics: [`${topic}.dlq`] });
      await waitFor(() => dlq.records.length >= 1, 'the dead-letter sentinel');
      expect(dlq.ns()).toEqual([99]);
    });

    it('sends a record whose handler always fails to <topic>.dlq, and later records still flow', async () => {
      const topic = uniqueName('poison');
      let poisonAttempts = 0;
      let poisonOffset = -1;
      const consumer = await track({
        group: uniqueName('g'),
        topics: [topic],
        maxAttempts: 3,
        handle: async (record) => {
          if (nOf(record) !== 1) return;
          poisonAttempts += 1;
          poisonOffset = record.offset;
          throw new Error('poison pill');
        },
      });
      await log.publish(topic, [
        ...numbered([0]),
        { key: 'bad', value: { n: 1 }, headers: { 'x-trace': 't1' } },
        ...numbered([2]),
      ]);
      await waitFor(() => consumer.records.length >= 2, 'the records around the poison');
      expect(consumer.ns()).toEqual([0, 2]);
      expect(poisonAttempts).toBe(3);

      const dlq = await track({ group: uniqueName('dlq'), topics: [`${topic}.dlq`] });
      await waitFor(() => dlq.records.length >= 1, 'the dead letter');
      const [letter] = dlq.records;
      expect(letter).toMatchObject({ topic: `${topic}.dlq`, key: 'bad', value: { n: 1 } });
      expect(letter?.headers).toMatchObject({ 'x-trace': 't1', 'x-original-offset': String(poisonOffset) });
      expect(letter?.headers['x-error']).toContain('poison pill');
      expect(letter?.headers).toMatchObject({ 'x-failure-class': 'unclassified', 'x-attempts': '3' });
    });

    it('dead-letters a record at once when the handler says no retry can fix it', async () => {
      const topic = uniqueName('malformed');
      let attempts = 0;
      const consumer = await track({
        group: uniqueName('g'),
        topics: [topic],
        maxAttempts: 8,
        handle: async (record) => {
          if (nOf(record) !== 1) return;
          attempts += 1;
          throw new PermanentEventFailure('not a domain event');
        },
      });
      await log.publish(topic, numbered([0, 1, 2]));
      await waitFor(() => consumer.records.length >= 2, 'the records around the malformed one');
      expect(attempts).toBe(1);
      const dlq = await track({ group: uniqueName('dlq'), topics: [`${topic}.dlq`] });
      await waitFor(() => dlq.records.length >= 1, 'the dead letter');
      expect(dlq.records[0]?.headers['x-error']).toContain('not a domain event');
      expect(dlq.records[0]?.headers).toMatchObject({ 'x-failure-class': 'permanent', 'x-attempts': '1' });
    });

    it('starts a new group at the end when fromBeginning is false', async () => {
      const topic = uniqueName('latest');
      await log.publish(topic, numbered([0, 1]));
      const consumer = await track({ group: uniqueName('g'), topics: [topic], fromBeginning: false });
      await log.publish(topic, numbered([2]));
      await waitFor(() => consumer.records.length >= 1, 'the new record');
      await log.publish(topic, numbered([3]));
      await waitFor(() => consumer.records.length >= 2, 'the sentinel');
      expect(consumer.ns()).toEqual([2, 3]);
    });

    it('keeps the order of each key when keys interleave', async () => {
      const topic = uniqueName('keys');
      await log.ensureTopic(topic, 3);
      const keys = ['tenant-a', 'tenant-b', 'tenant-c'];
      for (let batch = 0; batch < 4; batch += 1) {
        const messages = [0, 1, 2].flatMap((i) => keys.map((key) => ({ key, value: { n: batch * 3 + i } })));
        await log.publish(topic, messages);
      }
      const consumer = await track({ group: uniqueName('g'), topics: [topic] });
      await waitFor(() => consumer.records.length >= 36, 'every record');

      for (const key of keys) {
        const ofKey = consumer.records.filter((record) => record.key === key);
        expect(ofKey.map(nOf)).toEqual(Array.from({ length: 12 }, (_, n) => n));
        expect(new Set(ofKey.map((record) => record.partition)).size).toBe(1);
      }
    });
  });
}
