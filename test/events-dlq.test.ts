// `npm run events -- dlq list|replay`, run as the operator runs it (a child process reading the
// environment), against the embedded event log and, when KAFKA_BROKERS is set, against Kafka. A
// consumer sets a record aside for a schema failure; the command lists it with its reason and
// replays it to the topic it came from, without the dead-letter headers and saying where from.
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '@fieldops/kit';
import { openEventLog } from '@fieldops/kit/adapters';
import { listDeadLetters, PermanentEventFailure, type EventLog } from '@fieldops/kit/events';
import { eventually } from './support/harness.ts';

const COMMAND = join(import.meta.dirname, '..', 'platform', 'src', 'events-command.ts');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function events(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [COMMAND, ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const brokers = process.env.KAFKA_BROKERS ?? '';
const logs: [string, (dir: string) => NodeJS.ProcessEnv][] = [
  ['the embedded event log', (dir) => ({ FIELDOPS_DATA_DIR: dir, KAFKA_BROKERS: '' })],
  ...(brokers === ''
    ? []
    : [
        [
          'kafka',
          (dir: string) => ({
            FIELDOPS_DATA_DIR: dir,
            KAFKA_BROKERS: brokers,
            KAFKA_NAMESPACE: `dlq-${randomUUID().slice(0, 8)}`,
          }),
        ] as [string, (dir: string) => NodeJS.ProcessEnv],
      ]),
];

/** Opens the log the env selects, has a consumer set the record with `bad: true` aside, closes it. */
async function deadLetterOne(env: NodeJS.ProcessEnv, topic: string): Promise<{ eventId: string }> {
  const log = await openEventLog(loadConfig(env));
  try {
    const subscription = await log.subscribe({
      group: 'dlq-test',
      topics: [topic],
      handle: async (record) => {
        if ((record.value as { bad?: boolean }).bad)
          throw new PermanentEventFailure('schema: name is required');
      },
    });
    await log.publish(topic, [
      { key: 't1', value: { id: 'evt_good' }, headers: { 'x-event-id': 'evt_good' } },
      {
        key: 't1',
        value: { id: 'evt_bad', bad: true },
        headers: { 'x-event-id': 'evt_bad', 'x-tenant-id': 't1' },
      },
    ]);
    await eventually(async () => ((await listDeadLetters(log)).length === 1 ? true : undefined), 60_000);
    await subscription.stop();
    return { eventId: 'evt_bad' };
  } finally {
    await log.close();
  }
}

async function withLog<T>(env: NodeJS.ProcessEnv, use: (log: EventLog) => Promise<T>): Promise<T> {
  const log = await openEventLog(loadConfig(env));
  try {
    return await use(log);
  } finally {
    await log.close();
  }
}

describe.each(logs)('npm run events -- dlq, on %s', (_name, envOf) => {
  it('lists a dead letter with its reason and replays it to its topic', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fieldops-dlq-'));
    try {
      const env = envOf(dir);
      const topic = `orders-${randomUUID().slice(0, 8)}`;
      const { eventId } = await deadLetterOne(env, topic);

      const listed = await events(env, 'dlq', 'list', '--topic', topic);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(`${topic}.dlq/0@0  from ${topic} event ${eventId}`);
      expect(listed.stdout).toContain('permanent: PermanentEventFailure: schema: name is required');
      expect(listed.stdout).toContain('1 dead letter.');
      const json = await events(env, 'dlq', 'list', '--id', eventId, '--json');
      expect(JSON.parse(json.stdout)).toEqual([
        expect.objectContaining({ id: `${topic}.dlq/0@0`, topic, eventId, failureClass: 'permanent' }),
      ]);
      expect((await events(env, 'dlq', 'list', '--id', 'evt_none')).stdout).toContain('0 dead letters.');

      const replayed = await events(env, 'dlq', 'replay', '--id', eventId);
      expect(replayed.code).toBe(0);
      expect(replayed.stdout).toContain(`replayed ${topic}.dlq/0@0 to ${topic}`);
      expect(replayed.stdout).toContain('1 replayed, 0 skipped.');

      const back = await withLog(env, (log) => log.readTopic(topic));
      expect(back.map((record) => (record.value as { id: string }).id)).toEqual([
        'evt_good',
        'evt_bad',
        'evt_bad',
      ]);
      const again = back[2];
      expect(again?.key).toBe('t1');
      expect(again?.headers).toEqual({
        'x-event-id': 'evt_bad',
        'x-tenant-id': 't1',
        'x-replayed-from': `${topic}.dlq/0@0`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('refuses an unknown action, saying how to use it, and changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fieldops-dlq-'));
    try {
      const run = await events(envOf(dir), 'dlq', 'purge');
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('usage: npm run events -- dlq list|replay');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
