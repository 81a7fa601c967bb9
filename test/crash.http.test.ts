// Exactly-once keyed writes across a real crash (ARCHITECTURE §4, step 4: "a crash between any two
// steps loses nothing and duplicates nothing"). The platform runs as a child process so SIGKILL
// takes everything with it at an arbitrary point: the in-memory key locks, unflushed offsets, the
// outbox relay mid-publish. The client then does what a client must after a crash, re-send every
// key, and the data and the audit trail must hold each write exactly once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  createLead,
  expectExactlyOnce,
  nameOf,
  newTenant as newTenantWith,
  pool,
  type Lead,
  type Reply,
} from './support/keyed-writes.ts';
import { killHard, spawnPlatform, stopGently, type PlatformChild } from './support/platform-child.ts';

const ADMIN_SECRET = 'crash-test-admin-secret';

type Child = PlatformChild;

const children = new Set<Child>();
const dataDirs = new Set<string>();

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-crash-'));
  dataDirs.add(dir);
  return dir;
}

/** Starts the platform on `dataDir` and resolves once it said where it listens. */
async function startChild(dataDir: string): Promise<Child> {
  const child = await spawnPlatform({ dataDir, adminSecret: ADMIN_SECRET });
  children.add(child);
  return child;
}

/** SIGKILL: no handler runs, nothing is flushed or closed. */
async function crash(child: Child): Promise<void> {
  const { signal } = await killHard(child);
  expect(signal).toBe('SIGKILL');
  children.delete(child);
}

/** SIGTERM and a clean exit, which is itself checked: a restart after a crash must stop cleanly. */
async function stop(child: Child): Promise<void> {
  const { code } = await stopGently(child);
  children.delete(child);
  expect({ code, stderr: child.stderr() }).toMatchObject({ code: 0 });
}

const newTenant = (child: Child, name: string): Promise<string> => newTenantWith(child, name, ADMIN_SECRET);

afterEach(async () => {
  // A failed test must not leave a platform running or data behind.
  for (const child of children) await killHard(child);
  children.clear();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  dataDirs.clear();
});

// ---------------------------------------------------------------------------------------------

describe('a platform killed in the middle of keyed writes', () => {
  it('after a restart and a retry of every key, holds one lead per key and one audit entry per lead', async () => {
    const KEYS = 200;
    const IN_FLIGHT = 8;
    const KILL_AFTER_ACKS = 80;
    const dataDir = newDataDir();
    const first = await startChild(dataDir);
    const token = await newTenant(first, 'Crash Co');

    const keys = Array.from({ length: KEYS }, (_, i) => `crash-${String(i).padStart(3, '0')}`);
    // Every fifth key is sent a second time soon after the first, often while the first is still
    // in flight, so duplicates race each other as well as the kill.
    const sends = keys.flatMap((key, i) => (i % 5 === 4 ? [key, keys[i - 2] as string] : [key]));

    const acked = new Map<string, string>();
    const unanswered = new Set<string>();
    const refused: { key: string; reply: Reply }[] = [];
    let killed: Promise<void> | undefined;
    await pool(
      sends,
      IN_FLIGHT,
      async (key) => {
        let reply: Reply;
        try {
          reply = await createLead(first, token, key);
        } catch {
          // The connection died with the process: the write may or may not have been applied.
          unanswered.add(key);
          return;
        }
        if (reply.status !== 200 && reply.status !== 201) {
          refused.push({ key, reply });
          return;
        }
        const id = (reply.body.lead as Lead).id;
        // A duplicate must answer the record of the first send, never a record of its own.
        expect({ key, id }).toEqual({ key, id: acked.get(key) ?? id });
        acked.set(key, id);
        if (acked.size >= KILL_AFTER_ACKS) killed ??= crash(first);
      },
      () => killed !== undefined,
    );
    await killed;

    expect(refused).toEqual([]);
    // The kill landed mid-stream: some writes were acknowledged, others were cut off in flight.
    expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(unanswered.size).toBeGreaterThan(0);

    const second = await startChild(dataDir);
    const idByKey = new Map<string, string>();
    const retries: { key: string; reply: Reply }[] = [];
    await pool(keys, IN_FLIGHT, async (key) => {
      const reply = await createLead(second, token, key);
      retries.push({ key, reply });
      if (reply.status === 200 || reply.status === 201) idByKey.set(key, (reply.body.lead as Lead).id);
    });
    expect(retries.filter(({ reply }) => reply.status !== 200 && reply.status !== 201)).toEqual([]);
    // An acknowledged write survives the crash as it was answered, and its retry is a replay.
    for (const [key, id] of acked) {
      const retry = retries.find((r) => r.key === key)?.reply.body;
      expect({ key, id: idByKey.get(key), replayed: retry?.replayed }).toEqual({ key, id, replayed: true });
    }

    await expectExactlyOnce(second, token, idByKey);
    await stop(second);
  }, 60_000);

  it('after a kill during a burst of one key, a single retry finds the one lead that key made', async () => {
    const BURST = 20;
    const key = 'crash-burst-1';
    const dataDir = newDataDir();
    const first = await startChild(dataDir);
    const token = await newTenant(first, 'Burst Co');

    // Kill as soon as one of the duplicates is answered: the rest are queued behind the key's lock
    // or half-way through their replay when the process dies.
    let killed: Promise<void> | undefined;
    const answers: Reply[] = [];
    await Promise.all(
      Array.from({ length: BURST }, async () => {
        try {
          answers.push(await createLead(first, token, key));
          killed ??= crash(first);
        } catch {
          // Cut off by the kill.
        }
      }),
    );
    await killed;
    // Whatever got through before the kill is one write and its replays.
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.length).toBeLessThan(BURST);
    const id = ((answers[0] as Reply).body.lead as Lead).id;
    expect(answers.map((answer) => (answer.body.lead as Lead).id)).toEqual(answers.map(() => id));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 200 && answer.body.replayed === true)).toHaveLength(
      answers.length - 1,
    );

    const second = await startChild(dataDir);
    const retry = await createLead(second, token, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ replayed: true, lead: { id, name: nameOf(key) } });

    await expectExactlyOnce(second, token, new Map([[key, id]]));
    await stop(second);
  }, 60_000);
});
