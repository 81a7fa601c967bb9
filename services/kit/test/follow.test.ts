// followFromStart (issue 34): a consumer that must see every event starts its group at the
// beginning and does not hold its process's start on the first join, which after a crash waits
// out the killed member's session. On the real embedded log, with its join held back as a
// restarted member's is.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { openEmbeddedEventLog } from '../src/events/embedded.ts';
import type { JoinFailed } from '../src/events/follow.ts';
import { followFromStart } from '../src/events/follow.ts';
import type { EventLog, EventRecord, SubscribeOptions, Subscription } from '../src/events/port.ts';

const dir = mkdtempSync(join(tmpdir(), 'fieldops-follow-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The log, with each first join held until `release()` (or failed with `fail()`). */
function withHeldJoin(log: EventLog) {
  let release!: () => void;
  let fail!: (err: Error) => void;
  const gate = new Promise<void>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  const held: EventLog = Object.create(log) as EventLog;
  held.subscribe = async (options: SubscribeOptions): Promise<Subscription> => {
    await gate;
    return log.subscribe(options);
  };
  return { log: held, release, fail };
}

const message = (id: string) => ({ key: 't1', value: { id } });

describe('followFromStart', () => {
  it('resolves before the join, and the group still reads every event from the beginning', async () => {
    const log = await openEmbeddedEventLog({ dir: join(dir, 'a') });
    const held = withHeldJoin(log);
    const seen: string[] = [];
    await log.ensureTopic('t.events');
    await log.publish('t.events', [message('before')]);
    const handle = async (record: EventRecord) => {
      seen.push((record.value as { id: string }).id);
    };
    const subscription = await followFromStart(held.log, { group: 'g', topics: ['t.events'], handle });
    await log.publish('t.events', [message('while joining')]);
    expect(seen).toEqual([]);
    held.release();
    for (let n = 0; n < 200 && seen.length < 2; n += 1) await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(['before', 'while joining']);
    await subscription.stop();
    await log.close();
  });

  it('stops a consumer whose join was still going on, and it handles nothing after', async () => {
    const log = await openEmbeddedEventLog({ dir: join(dir, 'b') });
    const held = withHeldJoin(log);
    const seen: string[] = [];
    await log.ensureTopic('t.events');
    await log.publish('t.events', [message('one')]);
    const subscription = await followFromStart(held.log, {
      group: 'g',
      topics: ['t.events'],
      handle: async (record) => {
        seen.push((record.value as { id: string }).id);
      },
    });
    const stopping = subscription.stop();
    held.release();
    await stopping;
    await log.publish('t.events', [message('two')]);
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).not.toContain('two');
    await log.close();
  });

  it('hands a first join that fails for good on as JoinFailed, unless the consumer was stopped', async () => {
    const log = await openEmbeddedEventLog({ dir: join(dir, 'c') });
    const failures: JoinFailed[] = [];
    const noted = (failure: JoinFailed) => failures.push(failure);
    try {
      const failing = withHeldJoin(log);
      await followFromStart(
        failing.log,
        { group: 'lost', topics: ['t.events'], handle: async () => {} },
        noted,
      );
      failing.fail(new Error('coordinator gone'));
      const stopped = withHeldJoin(log);
      const subscription = await followFromStart(
        stopped.log,
        { group: 'stopped', topics: ['t.events'], handle: async () => {} },
        noted,
      );
      const stopping = subscription.stop();
      stopped.fail(new Error('closed while stopping'));
      await stopping;
      await new Promise((r) => setTimeout(r, 20));
      expect(failures.map((failure) => failure.message)).toEqual([
        'The consumer group lost could not join: coordinator gone',
      ]);
    } finally {
      await log.close();
    }
  });
});
