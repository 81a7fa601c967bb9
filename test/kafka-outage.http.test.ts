// The platform on Kafka while its broker goes away for ten seconds in the middle of a stream of
// keyed writes, and comes back. Writes go on (they land in each service's store and outbox), reads
// keep answering, and once the broker is back the outbox drains by itself: every applied write
// shows up exactly once in the audit trail, and every webhook event reaches its subscriber at
// least once, a repeat always under the same webhook-id.
//
// The broker stopped here is one of this test's own (scripts/kafka/broker.mjs on free ports, in a
// temp folder), so the Kafka tests running beside it on the shared broker are not disturbed. It
// runs with the other Kafka suites, when KAFKA_BROKERS is set (.ci/run, npm run test:adapters).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBroker, stopBroker, type BrokerInfo } from '../scripts/kafka/broker.mjs';
import {
  eventually,
  startTestPlatform,
  type Body,
  type Client,
  type TestPlatform,
} from './support/harness.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const kafkaOn = (process.env.KAFKA_BROKERS ?? '') !== '';
const describeWithKafka = kafkaOn ? describe : describe.skip;
const title = kafkaOn
  ? 'the platform on Kafka through a broker outage'
  : 'the platform on Kafka through a broker outage (skipped: KAFKA_BROKERS is not set)';

/** How long the broker stays down: long enough for every client retry to give up. */
const OUTAGE_MS = 10_000;
const FAST_DISPATCH = {
  FIELDOPS_WEBHOOK_RETRY_DELAYS_MS: '200,200,200,200,200',
  FIELDOPS_WEBHOOK_POLL_MS: '50',
  FIELDOPS_WEBHOOK_TIMEOUT_MS: '3000',
};

describeWithKafka(title, () => {
  let dir: string;
  let brokerDir: string;
  let broker: BrokerInfo;
  let platform: TestPlatform;
  let api: Client;
  let receiver: WebhookReceiver;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fieldops-kafka-outage-'));
    brokerDir = join(dir, 'kafka');
    broker = await startBroker({ dir: brokerDir, port: 0 });
    Object.assign(process.env, FAST_DISPATCH);
    platform = await startTestPlatform(
      { KAFKA_BROKERS: broker.brokers, KAFKA_NAMESPACE: 'outage', FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1' },
      join(dir, 'platform'),
    );
    ({ api } = await platform.tenant('Outage Co'));
    receiver = await startReceiver();
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
    await stopBroker({ dir: brokerDir });
    process.env = savedEnv;
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  /** A keyed write, sent again under the same key until it is answered (as a client would). */
  async function createLead(n: number): Promise<string> {
    for (;;) {
      const reply = await api.post(
        '/leads',
        { name: `Outage lead ${n}` },
        { 'idempotency-key': `outage-${n}` },
      );
      if (reply.status === 201) return (reply.body.lead as Body).id as string;
      if (reply.status < 500) throw new Error(`lead ${n} refused: ${JSON.stringify(reply.body)}`);
    }
  }

  it('applies every write once, delivers every webhook at least once under one id, and drains by itself', async () => {
    const hook = await api.post('/webhooks', { url: receiver.url('/outage'), eventTypes: ['lead.created'] });
    expect(hook.status).toBe(201);
    const leads: string[] = [];
    let n = 0;
    for (; n < 5; n += 1) leads.push(await createLead(n));

    await stopBroker({ dir: brokerDir });
    const until = Date.now() + OUTAGE_MS;
    let readsWhileDown = 0;
    while (Date.now() < until) {
      leads.push(await createLead(n));
      n += 1;
      // Reads are served from the services' stores, not from the event log.
      const read = await api.get(`/leads/${leads[0]}`);
      expect(read.status).toBe(200);
      readsWhileDown += 1;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(readsWhileDown).toBeGreaterThan(0);
    await startBroker({ dir: brokerDir, port: broker.port });
    for (const end = n + 5; n < end; n += 1) leads.push(await createLead(n));

    // Every applied write, exactly once in the audit trail.
    const audited = await eventually(async () => {
      const reply = await api.get('/audit?limit=100');
      const ofLeads = (reply.body.items as (Body & { resourceId: string })[]).filter((entry) =>
        leads.includes(entry.resourceId),
      );
      return new Set(ofLeads.map((entry) => entry.resourceId)).size === leads.length ? ofLeads : undefined;
    }, 120_000);
    expect(audited).toHaveLength(leads.length);

    // Every webhook event at least once; a repeat carries the same webhook-id (the event id).
    const deliveries = await eventually(async () => {
      const byLead = new Map<string, Set<string>>();
      for (const request of receiver.received('/outage')) {
        const payload = JSON.parse(request.body) as { data: { resource: { id: string } } };
        const ids = byLead.get(payload.data.resource.id) ?? new Set<string>();
        ids.add(request.headers['webhook-id'] ?? '');
        byLead.set(payload.data.resource.id, ids);
      }
      return leads.every((lead) => byLead.has(lead)) ? byLead : undefined;
    }, 120_000);
    for (const lead of leads) expect(deliveries.get(lead)?.size).toBe(1);
  }, 300_000);
});
