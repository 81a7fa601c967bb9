// `npm start` under a supervisor that restarts it at once (issue 15): the platform's own entry
// (platform/src/main.ts) is killed with SIGKILL in the middle of keyed writes and started
// again on the same data without waiting for anything, three times. The restart is never refused
// (the data directories' locks are the OS's, gone with the process), and after a final retry of
// every key each key maps to exactly one lead, the audit trail has exactly one entry per applied
// write, and the hash chain verifies.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createLead, expectExactlyOnce, newTenant, pool, type Lead } from './support/keyed-writes.ts';
import { killHard, spawnPlatform, stopGently, type PlatformChild } from './support/platform-child.ts';

const ADMIN_SECRET = 'restart-crash-admin-secret';
const ROUNDS = 3;
const KEYS_PER_ROUND = 60;
const KILL_AFTER_ACKS = 25;
const IN_FLIGHT = 8;

const dataDir = mkdtempSync(join(tmpdir(), 'fieldops-restart-'));
const children = new Set<PlatformChild>();

async function start(): Promise<PlatformChild> {
  const child = await spawnPlatform({ dataDir, adminSecret: ADMIN_SECRET, entry: 'main' });
  children.add(child);
  return child;
}

/** SIGKILL and, in the same tick, the next start: no wait for the old process to be gone. */
function killAndRestart(child: PlatformChild): Promise<PlatformChild> {
  child.process.kill('SIGKILL');
  const next = start();
  void child.exited.then(() => children.delete(child));
  return next;
}

afterAll(async () => {
  for (const child of children) await killHard(child);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Round {
  acked: Map<string, string>;
  unanswered: number;
}

/** Sends the round's keys until enough are acknowledged, then kills and restarts the platform. */
async function roundOfWrites(
  child: PlatformChild,
  token: string,
  keys: string[],
): Promise<{ round: Round; next: PlatformChild }> {
  const round: Round = { acked: new Map(), unanswered: 0 };
  let next: Promise<PlatformChild> | undefined;
  await pool(
    keys,
    IN_FLIGHT,
    async (key) => {
      try {
        const reply = await createLead(child, token, key);
        expect([200, 201]).toContain(reply.status);
        round.acked.set(key, (reply.body.lead as Lead).id);
      } catch {
        round.unanswered += 1; // cut off by the kill: applied or not, the final retry tells
        return;
      }
      if (round.acked.size >= KILL_AFTER_ACKS) next ??= killAndRestart(child);
    },
    () => next !== undefined,
  );
  next ??= killAndRestart(child);
  return { round, next: await next };
}

describe('npm start killed with SIGKILL and restarted at once, three times, during keyed writes', () => {
  it('keeps one lead per key, one audit entry per write, and a chain that verifies', async () => {
    let child = await start();
    const token = await newTenant(child, 'Restart Co', ADMIN_SECRET);
    const keys: string[] = [];
    const acked = new Map<string, string>();
    let unanswered = 0;
    for (let r = 0; r < ROUNDS; r += 1) {
      const roundKeys = Array.from(
        { length: KEYS_PER_ROUND },
        (_, i) => `restart-${r}-${String(i).padStart(3, '0')}`,
      );
      keys.push(...roundKeys);
      // Keys of earlier rounds come again, as a client retrying after a crash would send them.
      const { round, next } = await roundOfWrites(child, token, [...roundKeys, ...keys.slice(0, r * 10)]);
      for (const [key, id] of round.acked) {
        expect({ key, id }).toEqual({ key, id: acked.get(key) ?? id });
        acked.set(key, id);
      }
      unanswered += round.unanswered;
      child = next;
    }

    const idByKey = new Map<string, string>();
    await pool(keys, IN_FLIGHT, async (key) => {
      const reply = await createLead(child, token, key);
      expect([200, 201]).toContain(reply.status);
      idByKey.set(key, (reply.body.lead as Lead).id);
    });
    // An acknowledged write survived every crash under the id it was answered with.
    for (const [key, id] of acked) expect({ key, id: idByKey.get(key) }).toEqual({ key, id });
    await expectExactlyOnce(child, token, idByKey);
    process.stdout.write(
      `restart-crash: ${ROUNDS} SIGKILLs with immediate restarts, ${keys.length} keys, ${acked.size} acknowledged before a kill, ${unanswered} cut off, ${idByKey.size} leads after the retry\n`,
    );
    const exit = await stopGently(child);
    expect({ code: exit.code, stderr: child.stderr() }).toMatchObject({ code: 0 });
    children.delete(child);
  }, 600_000); // four starts of the whole platform: minutes on a loaded 2-core machine
});
