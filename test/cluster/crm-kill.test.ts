// SIGKILL crm during a stream of keyed writes on the deployed topology (every process kind its own
// OS process). While crm is down the gateway answers each write 503 `unavailable` in the error
// envelope with retryable: true, promptly: never a hang, never a 500. Once crm is back
// (restartProcess), every write retried with its Idempotency-Key is applied exactly once and
// audited once, read back through the API (leads, GET /audit, the audit chain's verify).
import { describe, expect, it } from '@jest/globals';
import { killProcess, restartProcess } from '../../scripts/cluster/cluster.mjs';
import { clusterOfFile } from '../support/cluster.js';
import { eventually } from '../support/harness.js';
import { createLead, expectExactlyOnce, pool, type Reply } from '../support/keyed-writes.js';

const cluster = clusterOfFile('Crm Kill Co');

/** Writes acknowledged before the kill: enough that the stream is well under way. */
const BEFORE_KILL = 12;
const KEYS = Array.from({ length: 48 }, (_, n) => `crm-kill-${String(n).padStart(2, '0')}`);

/** What a write may answer while crm dies and is down: applied, or 503 unavailable, retryable. */
function expectAppliedOrUnavailable(key: string, reply: Reply): void {
  if (reply.status === 201) return;
  expect({ key, status: reply.status, body: reply.body }).toEqual({
    key,
    status: 503,
    body: expect.objectContaining({ ok: false, code: 'unavailable', retryable: true }),
  });
}

/** Retries a key until crm applies (201) or replays (200) it; answers the lead's id. */
async function retried(key: string): Promise<string> {
  return eventually(async () => {
    const reply = await createLead(cluster, cluster.token, key);
    if (reply.status === 503) return undefined;
    expect([200, 201]).toContain(reply.status);
    return (reply.body.lead as { id: string }).id;
  }, 120_000);
}

describe('crm SIGKILLed during a stream of keyed writes', () => {
  it('answers 503 unavailable (retryable) while it is down, then applies every retried key once', async () => {
    const replies = new Map<string, Reply>();
    let acknowledged = 0;
    let kill: Promise<boolean> | undefined;
    // Four writes in flight; the kill lands while the stream runs, and writes keep coming after.
    await pool(KEYS, 4, async (key) => {
      const reply = await createLead(cluster, cluster.token, key);
      replies.set(key, reply);
      if (reply.status === 201) acknowledged += 1;
      if (acknowledged >= BEFORE_KILL) kill ??= killProcess({ dataDir: cluster.dataDir }, 'crm');
    });
    expect(await kill).toBe(true);
    for (const [key, reply] of replies) expectAppliedOrUnavailable(key, reply);

    // With crm gone for certain, every write is refused the same way (the stream's last writes may
    // have raced the kill).
    const whileDown = await createLead(cluster, cluster.token, 'crm-kill-while-down');
    expectAppliedOrUnavailable('crm-kill-while-down', whileDown);
    expect(whileDown.status).toBe(503);
    expect([...replies.values()].filter((r) => r.status === 503).length).toBeGreaterThan(0);

    await restartProcess({ dataDir: cluster.dataDir }, 'crm');
    const idByKey = new Map<string, string>();
    for (const key of [...KEYS, 'crm-kill-while-down']) idByKey.set(key, await retried(key));
    // A key acknowledged before the kill keeps its lead: the retry replays it.
    for (const [key, reply] of replies) {
      if (reply.status === 201) expect(idByKey.get(key)).toBe((reply.body.lead as { id: string }).id);
    }
    await expectExactlyOnce(cluster, cluster.token, idByKey);
  }, 600_000);
});
