import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedEventLog } from '../src/events/embedded.ts';
import type { EmbeddedEventLogOptions } from '../src/events/embedded.ts';
import type { EventLog } from '../src/events/port.ts';
import { TopicFileCorrupt } from '../src/events/topic-scan.ts';
import { consume, describeEventLogContract, numbered, waitFor } from './contracts/events.contract.ts';
import type { Consumer } from './contracts/events.contract.ts';

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'fieldops-events-'));
const open = (dir: string, options: Partial<EmbeddedEventLogOptions> = {}): Promise<EventLog> =>
  openEmbeddedEventLog({ dir, retryBaseMs: 5, retryCapMs: 20, ...options });

describeEventLogContract('embedded', async () => {
  const dir = tempDir();
  return {
    log: await open(dir),
    reopen: () => open(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('embedded event log', () => {
  let dir: string;
  let log: EventLog | undefined;
  const consumers: Consumer[] = [];
  const track = async (consumer: Promise<Consumer>): Promise<Consumer> => {
    consumers.push(await consumer);
    return consumers[consumers.length - 1] as Consumer;
  };
  const current = (): EventLog => {
    if (!log) throw new Error('no log open');
    return log;
  };
  const reopen = async (options: Partial<EmbeddedEventLogOptions> = {}): Promise<EventLog> => {
    await log?.close();
    log = await open(dir, options);
    return log;
  };
  const topicPath = (topic: string): string => join(dir, 'topics', `${topic}.log`);
  const committed = (): Record<string, Record<string, number>> =>
    existsSync(join(dir, 'offsets.json'))
      ? (
          JSON.parse(readFileSync(join(dir, 'offsets.json'), 'utf8')) as {
            groups: Record<string, Record<string, number>>;
          }
        ).groups
      : {};
  /** Everything a new group reads from `topic`, waiting until `count` records are in. */
  const readAll = async (topic: string, count: number): Promise<Consumer> => {
    const reader = await track(consume(current(), { group: `reader-${consumers.length}`, topics: [topic] }));
    await waitFor(() => reader.records.length >= count, `${count} records of ${topic}`);
    return reader;
  };

  beforeEach(async () => {
    dir = tempDir();
    log = await open(dir);
  });

  afterEach(async () => {
    for (const consumer of consumers.splice(0)) await consumer.stop();
    await log?.close();
    log = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('numbers records from offset 0 in partition 0, one by one', async () => {
    await current().ensureTopic('numbers', 3);
    await current().publish('numbers', numbered([0, 1]));
    await current().publish('numbers', numbered([2]));
    const reader = await readAll('numbers', 3);
    expect(reader.records.map((record) => [record.partition, record.offset])).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
    ]);
  });

  it('keeps records, their times and headers across close and reopen', async () => {
    await current().publish('kept', [{ key: 'a', value: { n: 0 }, headers: { h: '1' } }, ...numbered([1])]);
    const before = await readAll('kept', 2);
    await reopen();
    const after = await readAll('kept', 2);
    expect(after.records).toEqual(before.records);
  });

  it('discards a torn last line on open and appends cleanly after it', async () => {
    await current().publish('torn', numbered([0, 1]));
    await current().close();
    appendFileSync(topicPath('torn'), '0123456789abcdef 1 {"o":2,"ts":"2024-');
    log = await open(dir);
    await current().publish('torn', numbered([2]));
    await reopen();
    const reader = await readAll('torn', 3);
    expect(reader.ns()).toEqual([0, 1, 2]);
    expect(reader.records.map((record) => record.offset)).toEqual([0, 1, 2]);
  });

  it('drops a batch whose last line never reached the disk, whole', async () => {
    await current().publish('batch', numbered([0]));
    await current().publish('batch', numbered([1, 2, 3]));
    await current().close();
    const lines = readFileSync(topicPath('batch'), 'utf8').split('\n');
    // Keep the first batch and two of the three lines of the second: a torn multi-line append.
    writeFileSync(topicPath('batch'), `${lines.slice(0, 3).join('\n')}\n`);
    log = await open(dir);
    await current().publish('batch', numbered([9]));
    const reader = await readAll('batch', 2);
    await current().publish('batch', numbered([10]));
    await waitFor(() => reader.records.length >= 3, 'the sentinel');
    expect(reader.ns()).toEqual([0, 9, 10]);
  });

  it('refuses to open a topic damaged before records that were whole', async () => {
    await current().publish('damaged', numbered([0]));
    await current().publish('damaged', numbered([1]));
    await current().publish('damaged', numbered([2]));
    await current().close();
    log = undefined;
    const text = readFileSync(topicPath('damaged'), 'utf8');
    writeFileSync(topicPath('damaged'), text.replace('"n":0', '"n":7'));
    await expect(open(dir)).rejects.toBeInstanceOf(TopicFileCorrupt);
    // The failed open released the directory.
    writeFileSync(topicPath('damaged'), text);
    log = await open(dir);
  });

  it('never persists a committed offset ahead of the records handled', async () => {
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const consumer = await track(
      consume(current(), {
        group: 'slow',
        topics: ['slow'],
        handle: async (record) => {
          if (record.offset === 1) await gate;
        },
      }),
    );
    await current().publish('slow', numbered([0, 1, 2]));
    await waitFor(() => committed()['slow']?.['slow'] === 1, 'offset 1 on disk');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(committed()['slow']?.['slow']).toBe(1);
    release();
    await waitFor(() => consumer.records.length >= 3, 'the rest');
    await consumer.stop();
    expect(committed()['slow']?.['slow']).toBe(3);
    expect(existsSync(join(dir, 'offsets.json.tmp'))).toBe(false);
  });

  it('lets one subscription of a group consume a topic; the next takes over when it stops', async () => {
    await current().publish('shared', numbered([0, 1]));
    const first = await track(consume(current(), { group: 'workers', topics: ['shared'] }));
    await waitFor(() => first.records.length >= 2, 'the first two');
    const second = await track(consume(current(), { group: 'workers', topics: ['shared'] }));
    await current().publish('shared', numbered([2]));
    await waitFor(() => first.records.length >= 3, 'the third');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(second.records).toEqual([]);

    await first.stop();
    await current().publish('shared', numbered([3]));
    await waitFor(() => second.records.length >= 1, 'the takeover');
    expect(first.ns()).toEqual([0, 1, 2]);
    expect(second.ns()).toEqual([3]);
  });

  it('wakes an idle subscriber on publish, without polling', async () => {
    let handledAt = 0;
    await track(
      consume(current(), {
        group: 'idle',
        topics: ['idle'],
        handle: async () => {
          handledAt = Date.now();
        },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const publishedAt = Date.now();
    await current().publish('idle', numbered([0]));
    await waitFor(() => handledAt > 0, 'the record');
    expect(handledAt - publishedAt).toBeLessThan(50);
  });

  it('abandons a retry backoff on stop and leaves the record to the group', async () => {
    await reopen({ retryBaseMs: 60_000 });
    let attempts = 0;
    const failing = await track(
      consume(current(), {
        group: 'g',
        topics: ['backoff'],
        handle: async () => {
          attempts += 1;
          throw new Error('down');
        },
      }),
    );
    await current().publish('backoff', numbered([0]));
    await waitFor(() => attempts === 1, 'the first attempt');
    const startedStop = Date.now();
    await failing.stop();
    expect(Date.now() - startedStop).toBeLessThan(1000);

    const next = await track(consume(current(), { group: 'g', topics: ['backoff'] }));
    await waitFor(() => next.records.length >= 1, 'the redelivery');
    expect(next.ns()).toEqual([0]);
    expect(readFileSync(topicPath('backoff'), 'utf8').split('\n')).toHaveLength(2);
    expect(existsSync(topicPath('backoff.dlq'))).toBe(false);
  });

  it('numbers dead letters in their own topic and keeps the original headers', async () => {
    await track(
      consume(current(), {
        group: 'g',
        topics: ['orders'],
        maxAttempts: 1,
        handle: async () => {
          throw new TypeError('bad order');
        },
      }),
    );
    await current().publish('orders', [{ key: 'o1', value: { n: 0 }, headers: { 'x-event-id': 'evt_1' } }]);
    const letters = await readAll('orders.dlq', 1);
    expect(letters.records[0]).toMatchObject({
      topic: 'orders.dlq',
      offset: 0,
      key: 'o1',
      headers: { 'x-event-id': 'evt_1', 'x-error': 'TypeError: bad order', 'x-original-offset': '0' },
    });
  });

  it('rejects illegal topic names, keys and headers, and unserialisable values, writing nothing', async () => {
    await expect(current().publish('../escape', numbered([0]))).rejects.toThrow(RangeError);
    await expect(current().publish('a topic', numbered([0]))).rejects.toThrow(RangeError);
    await expect(
      current().subscribe({ group: 'g', topics: ['bad/name'], handle: async () => {} }),
    ).rejects.toThrow(RangeError);
    await expect(current().subscribe({ group: '', topics: ['t'], handle: async () => {} })).rejects.toThrow(
      RangeError,
    );
    await expect(current().subscribe({ group: 'g', topics: [], handle: async () => {} })).rejects.toThrow(
      RangeError,
    );
    const badKey = { key: 7, value: 1 } as unknown as { key: string; value: unknown };
    await expect(current().publish('checked', [badKey])).rejects.toThrow(TypeError);
    const badHeader = { key: 'k', value: 1, headers: { n: 1 } } as unknown as { key: string; value: unknown };
    await expect(current().publish('checked', [badHeader])).rejects.toThrow(TypeError);
    await expect(
      current().publish('checked', [...numbered([0]), { key: 'k', value: 10n }]),
    ).rejects.toThrow();
    await current().publish('checked', numbered([1]));
    const reader = await readAll('checked', 1);
    expect(reader.records.map((record) => [record.offset, record.value])).toEqual([[0, { n: 1 }]]);
  });

  it('is open once per directory (across processes: dir-lock.test.ts)', async () => {
    await expect(open(dir)).rejects.toThrow(/already open in this process/);
    await current().close();
    log = undefined;
    // A LOCK file left by a process that is gone (a crash) does not block the next start.
    writeFileSync(join(dir, 'LOCK'), '2147483646');
    log = await open(dir);
    expect(readFileSync(join(dir, 'LOCK'), 'utf8')).toBe(String(process.pid));
  });

  it('stops its subscriptions on close and refuses work afterwards', async () => {
    let handled = 0;
    const closing = current();
    await closing.subscribe({ group: 'g', topics: ['t'], handle: async () => void (handled += 1) });
    await closing.publish('t', numbered([0]));
    await waitFor(() => handled === 1, 'the record');
    await closing.close();
    log = undefined;
    await expect(closing.publish('t', numbered([1]))).rejects.toThrow(/closed/);
    await expect(closing.subscribe({ group: 'g', topics: ['t'], handle: async () => {} })).rejects.toThrow();
    await (await open(dir)).close(); // the lock was released
  });

  it.each(['always', 'interval', 'never'] as const)('persists records with fsync %s', async (fsync) => {
    await reopen({ fsync });
    await current().publish('modes', numbered([0, 1]));
    await reopen({ fsync });
    const reader = await readAll('modes', 2);
    expect(reader.ns()).toEqual([0, 1]);
  });
});
