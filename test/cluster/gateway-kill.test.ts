// SIGKILL the gateway of the deployed topology during a stream of writes, then restart it: nothing
// it acknowledged is lost. The gateway holds no state of its own (the services own their stores),
// so every write answered 2xx before the kill is readable, unchanged, through the new gateway.
import { describe, expect, it } from '@jest/globals';
import { killProcess, restartProcess } from '../../scripts/cluster/cluster.mjs';
import { clusterOfFile } from '../support/cluster.js';
import { createLead, nameOf, pool, readAll, type Lead } from '../support/keyed-writes.js';

const cluster = clusterOfFile('Gateway Kill Co');

const BEFORE_KILL = 15;
const KEYS = Array.from({ length: 60 }, (_, n) => `gw-kill-${String(n).padStart(2, '0')}`);

describe('the gateway SIGKILLed during a stream of writes, then restarted', () => {
  it('loses nothing it acknowledged: every 2xx write before the kill reads back after', async () => {
    const acknowledged = new Map<string, string>();
    let kill: Promise<boolean> | undefined;
    let unanswered = 0;
    await pool(KEYS, 4, async (key) => {
      // A write in flight when the gateway dies, or sent after, gets no answer: not acknowledged.
      const reply = await createLead(cluster, cluster.token, key).catch(() => undefined);
      if (reply?.status === 201) acknowledged.set(key, (reply.body.lead as { id: string }).id);
      else if (reply === undefined) unanswered += 1;
      else throw new Error(`${key}: ${reply.status} ${JSON.stringify(reply.body)}`);
      if (acknowledged.size >= BEFORE_KILL) kill ??= killProcess({ dataDir: cluster.dataDir }, 'gateway');
    });
    expect(await kill).toBe(true);
    // The kill landed mid-stream: the last writes found no gateway.
    expect(unanswered).toBeGreaterThan(0);
    expect(acknowledged.size).toBeGreaterThanOrEqual(BEFORE_KILL);

    await restartProcess({ dataDir: cluster.dataDir }, 'gateway');
    const leads = await readAll<Lead>(cluster, cluster.token, '/api/v1/leads');
    const byId = new Map(leads.map((lead) => [lead.id, lead]));
    for (const [key, id] of acknowledged)
      expect({ key, lead: byId.get(id)?.name }).toEqual({ key, lead: nameOf(key) });
  }, 600_000);
});
