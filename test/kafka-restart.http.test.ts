// The platform on Kafka restarts while the broker keeps its consumer groups' offsets: the new
// platform takes up every group where the old one committed, so nothing that was handled before
// the restart is applied again (no second audit entry, no second webhook), and events after the
// restart flow as before. Runs with the other Kafka suites, when KAFKA_BROKERS is set.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  eventually,
  startTestPlatform,
  type Body,
  type Client,
  type TestPlatform,
} from './support/harness.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const brokers = process.env.KAFKA_BROKERS ?? '';
const describeWithKafka = brokers !== '' ? describe : describe.skip;
const title =
  brokers !== ''
    ? 'the platform on Kafka across a restart'
    : 'the platform on Kafka across a restart (skipped: KAFKA_BROKERS is not set)';

describeWithKafka(title, () => {
  let dir: string;
  let platform: TestPlatform;
  let receiver: WebhookReceiver;
  const savedEnv = { ...process.env };
  // Its own namespace: the topics and groups of this platform alone, the same after the restart.
  const env = {
    KAFKA_BROKERS: brokers,
    KAFKA_NAMESPACE: `restart-${process.pid}`,
    FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1',
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fieldops-kafka-restart-'));
    process.env.FIELDOPS_WEBHOOK_POLL_MS = '50';
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
    process.env = savedEnv;
    rmSync(dir, { recursive: true, force: true });
  });

  const createLead = async (api: Client, name: string): Promise<string> => {
    const reply = await api.post('/leads', { name });
    expect(reply.status).toBe(201);
    return (reply.body.lead as Body).id as string;
  };

  const auditedOnce = (api: Client, leads: string[]) =>
    eventually(async () => {
      const reply = await api.get('/audit?limit=100');
      const entries = (reply.body.items as (Body & { resourceId: string })[]).filter((entry) =>
        leads.includes(entry.resourceId),
      );
      return new Set(entries.map((entry) => entry.resourceId)).size === leads.length ? entries : undefined;
    }, 30_000);

  const delivered = (leads: string[]) =>
    eventually(async () => {
      const ids = receiver
        .received('/restart')
        .map(
          (request) => (JSON.parse(request.body) as { data: { resource: { id: string } } }).data.resource.id,
        );
      return leads.every((lead) => ids.includes(lead)) ? ids : undefined;
    }, 30_000);

  it('re-applies nothing that was handled before the restart', async () => {
    const dataDir = join(dir, 'platform');
    platform = await startTestPlatform(env, dataDir);
    const { tenantId } = await platform.tenant('Restart Co');
    const { api } = await platform.token(tenantId, { role: 'Manager' });
    expect(
      (await api.post('/webhooks', { url: receiver.url('/restart'), eventTypes: ['lead.created'] })).status,
    ).toBe(201);
    const before: string[] = [];
    for (let n = 0; n < 5; n += 1) before.push(await createLead(api, `Before ${n}`));
    await auditedOnce(api, before);
    await delivered(before);

    await platform.stop({ keepData: true });
    platform = await startTestPlatform(env, dataDir);
    const again = platform.client((await platform.token(tenantId, { role: 'Manager' })).secret);
    const after = await createLead(again, 'After');
    const leads = [...before, after];

    // The event after the restart arrived, so anything re-delivered from before it has too.
    const entries = await auditedOnce(again, leads);
    const ids = await delivered(leads);
    expect(entries).toHaveLength(leads.length);
    expect([...ids].sort()).toEqual([...leads].sort());
  }, 120_000);
});
