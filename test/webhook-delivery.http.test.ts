// Webhook delivery end to end: a write through HTTP emits an event, the dispatcher consumes it
// and POSTs it to a real receiver (node:http), signed per Standard Webhooks. Signatures are
// checked by the `standardwebhooks` package's own verifier, not by our code. The retry
// schedule is made fast through FIELDOPS_WEBHOOK_RETRY_DELAYS_MS (the real one is unit-tested).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import {
  eventually,
  startTestPlatform,
  type Body,
  type Client,
  type TestPlatform,
} from './support/harness.ts';
import { startReceiver, type Received, type WebhookReceiver } from './support/webhook-receiver.ts';
import { describeInProcess, onCluster } from './support/suite-tenant.ts';

const RETRY_DELAY_MS = 150;
const FAST_DISPATCH = {
  FIELDOPS_WEBHOOK_RETRY_DELAYS_MS: [RETRY_DELAY_MS, RETRY_DELAY_MS, RETRY_DELAY_MS].join(','),
  FIELDOPS_WEBHOOK_POLL_MS: '50',
  FIELDOPS_WEBHOOK_TIMEOUT_MS: '3000',
  // This file has one tenant: it may use every slot (fairness between tenants is
  // test/webhook-fairness.http.test.ts), so the restart test's 20 slow answers fit its waits.
  FIELDOPS_WEBHOOK_TENANT_CONCURRENCY: '8',
};
const WAIT_MS = 15_000;

let platform: TestPlatform;
let api: Client;
let token: string;
let receiver: WebhookReceiver;
/** In process, the platform's own data dir, kept for the restart (a cluster keeps its own). */
let dataDir: string | undefined;
/** The dispatcher reads its pacing from the environment (docs/webhooks.md): the harness sets it. */
const SETTINGS = { FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1', ...FAST_DISPATCH };

beforeAll(async () => {
  dataDir = onCluster ? undefined : mkdtempSync(join(tmpdir(), 'fieldops-webhooks-'));
  platform = await startTestPlatform(SETTINGS, dataDir);
  ({ api, token } = await platform.tenant('Delivery Co'));
  receiver = await startReceiver();
});
afterAll(async () => {
  await platform.stop();
  await receiver.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Subscribed {
  id: string;
  secret: string;
}

async function subscribe(path: string, eventTypes: string[] = ['lead.created']): Promise<Subscribed> {
  const reply = await api.post('/webhooks', { url: receiver.url(path), eventTypes });
  expect(reply.status).toBe(201);
  return { id: (reply.body.webhook as { id: string }).id, secret: reply.body.secret as string };
}

async function captureLead(name: string): Promise<string> {
  const reply = await api.post('/leads', { name });
  expect(reply.status).toBe(201);
  return (reply.body.lead as { id: string }).id;
}

const arrived = (path: string, count: number, timeoutMs = WAIT_MS) =>
  eventually(async () => {
    const got = receiver.received(path);
    return got.length >= count ? got : undefined;
  }, timeoutMs);

/** Verifies with the Standard Webhooks reference implementation; throws if the signature is wrong. */
const verified = (secret: string, request: Received) =>
  new Webhook(secret).verify(request.body, request.headers) as {
    type: string;
    timestamp: string;
    data: Body & { resource: { kind: string; id: string } };
  };

type Delivery = Body & {
  id: string;
  status: string;
  eventId: string;
  attemptCount: number;
  attempts: { statusCode: number; trigger: string; at: string }[];
};

async function deliveries(subscriptionId: string, client: Client = api): Promise<Delivery[]> {
  const reply = await client.get(`/webhooks/${subscriptionId}/deliveries?limit=100`);
  expect(reply.status).toBe(200);
  return reply.body.items as Delivery[];
}

const settled = (subscriptionId: string, count: number, status: string, client: Client = api) =>
  eventually(async () => {
    const log = await deliveries(subscriptionId, client);
    return log.length === count && log.every((entry) => entry.status === status) ? log : undefined;
  }, WAIT_MS);

const subscription = async (id: string, client: Client = api) =>
  (await client.get(`/webhooks/${id}`)).body.webhook as Body & {
    status: string;
    disabledReason: string;
    throttledUntil: string;
  };

describe('signed delivery', () => {
  it('POSTs each matching event once, verified by the standardwebhooks package', async () => {
    const hook = await subscribe('/signed');
    const leadId = await captureLead('Signed Lead');
    const [request] = await arrived('/signed', 1);
    const payload = verified(hook.secret, request as Received);
    expect(payload.type).toBe('lead.created');
    expect(payload.data.resource).toEqual({ kind: 'lead', id: leadId });
    expect((payload.data.lead as { name: string }).name).toBe('Signed Lead');
    expect(request?.headers['content-type']).toBe('application/json');
    const [delivery] = await settled(hook.id, 1, 'succeeded');
    expect(delivery).toMatchObject({ eventType: 'lead.created', attemptCount: 1 });
    expect(delivery?.attempts.map((attempt) => attempt.statusCode)).toEqual([200]);
    // webhook-id is the event id, the key a receiver de-duplicates on.
    expect(request?.headers['webhook-id']).toBe(delivery?.eventId);
  });

  it('refuses a signature made with another secret or over an altered body', async () => {
    const hook = await subscribe('/tamper');
    await captureLead('Tamper Lead');
    const [request] = await arrived('/tamper', 1);
    const other = await subscribe('/unused');
    expect(() => verified(other.secret, request as Received)).toThrow();
    const altered = {
      ...(request as Received),
      body: (request as Received).body.replace('Tamper', 'Tampered'),
    };
    expect(() => verified(hook.secret, altered)).toThrow();
  });

  it('sends only the event types a subscription asked for', async () => {
    const hook = await subscribe('/filtered', ['customer.created']);
    await captureLead('Not For This Hook');
    const customer = await api.post('/customers', { name: 'Filter Customer' });
    expect(customer.status).toBe(201);
    const [request] = await arrived('/filtered', 1);
    expect(verified(hook.secret, request as Received).type).toBe('customer.created');
    await settled(hook.id, 1, 'succeeded');
    expect(receiver.received('/filtered')).toHaveLength(1);
  });

  it('signs with both secrets during a rotation overlap, each verifiable on its own', async () => {
    const hook = await subscribe('/rotated');
    const rotation = await api.post(`/webhooks/${hook.id}/rotate-secret`);
    const fresh = rotation.body.secret as string;
    await captureLead('Rotation Lead');
    const [request] = await arrived('/rotated', 1);
    expect(request?.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(verified(fresh, request as Received).type).toBe('lead.created');
    expect(verified(hook.secret, request as Received).type).toBe('lead.created');
  });
});

describe('retries', () => {
  it('retries a failing endpoint with backoff until it recovers, with the same webhook-id', async () => {
    receiver.script('/flaky', (n) => ({ status: n <= 2 ? 500 : 200 }));
    const hook = await subscribe('/flaky');
    await captureLead('Flaky Lead');
    const requests = await arrived('/flaky', 3);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    for (const request of requests) expect(verified(hook.secret, request).type).toBe('lead.created');
    for (let i = 1; i < requests.length; i++) {
      // The schedule's delay less its jitter (±10%).
      expect((requests[i] as Received).at - (requests[i - 1] as Received).at).toBeGreaterThanOrEqual(
        RETRY_DELAY_MS * 0.9 - 5,
      );
    }
    const [delivery] = await settled(hook.id, 1, 'succeeded');
    expect(delivery?.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 500, 200]);
    expect((await subscription(hook.id)).status).toBe('enabled');
  });

  it('treats no answer at all (connection refused) as a failed attempt and retries it', async () => {
    const reply = await api.post('/webhooks', {
      url: 'http://127.0.0.1:9/closed',
      eventTypes: ['lead.created'],
    });
    const id = (reply.body.webhook as { id: string }).id;
    await captureLead('Refused Lead');
    const [delivery] = await settled(id, 1, 'failed');
    expect(delivery?.attempts.map((attempt) => attempt.statusCode)).toEqual([0, 0, 0, 0]);
  });

  it('disables an endpoint that fails for the whole schedule (reason failing)', async () => {
    receiver.script('/down', () => ({ status: 503 }));
    const hook = await subscribe('/down');
    await captureLead('Down Lead');
    const [delivery] = await settled(hook.id, 1, 'failed');
    expect(delivery?.attemptCount).toBe(4);
    expect(await subscription(hook.id)).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
    await captureLead('After Disable');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received('/down')).toHaveLength(4);
    expect(await deliveries(hook.id)).toHaveLength(1);
  });
});

describe('410 Gone and 429 Too Many Requests', () => {
  it('disables the subscription on 410 and sends it nothing more', async () => {
    receiver.script('/gone', () => ({ status: 410 }));
    const hook = await subscribe('/gone');
    await captureLead('Gone Lead');
    const [delivery] = await settled(hook.id, 1, 'failed');
    expect(delivery?.attemptCount).toBe(1);
    expect(await subscription(hook.id)).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
    await captureLead('Gone Again');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received('/gone')).toHaveLength(1);
    const retry = await api.post(`/webhooks/${hook.id}/deliveries/${delivery?.id}/retry`);
    expect(retry.status).toBe(409);
    expect(retry.body.code).toBe('conflict');
  });

  it('waits out a 429 Retry-After (longer than the schedule) before the next attempt', async () => {
    receiver.script('/busy', (n) =>
      n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    const hook = await subscribe('/busy');
    await captureLead('Busy Lead');
    const [first] = await arrived('/busy', 1);
    const throttled = await eventually(async () => {
      const sub = await subscription(hook.id);
      return sub.throttledUntil ? sub : undefined;
    });
    expect(Date.parse(throttled.throttledUntil)).toBeGreaterThan((first as Received).at + 900);
    const [, second] = await arrived('/busy', 2);
    expect((second as Received).at - (first as Received).at).toBeGreaterThanOrEqual(950);
    const [delivery] = await settled(hook.id, 1, 'succeeded');
    expect(delivery?.attempts.map((attempt) => attempt.statusCode)).toEqual([429, 200]);
  });
});

describe('429 holds the whole endpoint back', () => {
  it("delays the endpoint's other deliveries until Retry-After, without spending their attempts", async () => {
    receiver.script('/throttled', (n) =>
      n === 1 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 },
    );
    const hook = await subscribe('/throttled');
    await captureLead('Throttled First');
    const [first] = await arrived('/throttled', 1);
    await eventually(async () => ((await subscription(hook.id)).throttledUntil ? true : undefined));
    const secondLead = await captureLead('Throttled Second');
    const requests = await arrived('/throttled', 3);
    for (const request of requests.slice(1)) {
      expect(request.at - (first as Received).at).toBeGreaterThanOrEqual(1950);
    }
    const log = await settled(hook.id, 2, 'succeeded');
    const second = log.find((entry) => {
      const request = requests.find((r) => r.headers['webhook-id'] === entry.eventId);
      return request && verified(hook.secret, request).data.resource.id === secondLead;
    });
    expect(second?.attempts.map((attempt) => attempt.statusCode)).toEqual([200]);
  });
});

describe('POST /webhooks/:id/deliveries/:deliveryId/retry', () => {
  it('sends a failed delivery again once the endpoint is enabled and recovered', async () => {
    let healthy = false;
    receiver.script('/later', () => ({ status: healthy ? 200 : 503 }));
    const hook = await subscribe('/later');
    await captureLead('Later Lead');
    const [failed] = await settled(hook.id, 1, 'failed');
    const refused = await api.post(`/webhooks/${hook.id}/deliveries/${failed?.id}/retry`);
    expect(refused.status).toBe(409);

    healthy = true;
    const enabled = await api.patch(`/webhooks/${hook.id}`, { enabled: true }, { 'if-match': '*' });
    expect(enabled.status).toBe(200);
    const retry = await api.post(`/webhooks/${hook.id}/deliveries/${failed?.id}/retry`);
    expect(retry.status).toBe(202);
    expect((retry.body.delivery as Delivery).status).toBe('pending');
    const [delivery] = await settled(hook.id, 1, 'succeeded');
    const last = delivery?.attempts.at(-1);
    expect(last).toMatchObject({ statusCode: 200, trigger: 'manual' });
    expect(delivery?.attemptCount).toBe(5);
    const requests = receiver.received('/later');
    expect(verified(hook.secret, requests.at(-1) as Received).type).toBe('lead.created');
  });

  it('sends a succeeded delivery again on request (same webhook-id), as one attempt', async () => {
    const hook = await subscribe('/resend');
    await captureLead('Resend Lead');
    const [delivery] = await settled(hook.id, 1, 'succeeded');
    const retry = await api.post(`/webhooks/${hook.id}/deliveries/${delivery?.id}/retry`);
    expect(retry.status).toBe(202);
    const requests = await arrived('/resend', 2);
    expect(requests[1]?.headers['webhook-id']).toBe(requests[0]?.headers['webhook-id']);
    const [again] = await settled(hook.id, 1, 'succeeded');
    expect(again?.attempts.map((attempt) => attempt.trigger)).toEqual(['scheduled', 'manual']);
  });

  it('answers 404 for a delivery of another subscription', async () => {
    const one = await subscribe('/one');
    const two = await subscribe('/two');
    await captureLead('Two Hooks Lead');
    const [delivery] = await settled(one.id, 1, 'succeeded');
    const reply = await api.post(`/webhooks/${two.id}/deliveries/${delivery?.id}/retry`);
    expect(reply.status).toBe(404);
  });
});

describeInProcess('dispatcher restart', () => {
  it('loses and duplicates no delivery when the platform stops mid-stream and starts again', async () => {
    // Every answer is slow (but inside the 3 s attempt timeout), so the dispatcher's slots stay
    // busy and most deliveries are still queued when the 20 leads are in and the stop comes.
    receiver.script('/restart', () => ({ status: 200, delayMs: 2500 }));
    const hook = await subscribe('/restart');
    const leadIds: string[] = [];
    for (let i = 0; i < 20; i++) leadIds.push(await captureLead(`Restart Lead ${i}`));
    // Stop while deliveries are in flight and others are still queued: a graceful stop finishes
    // the attempts in hand and starts no new one.
    await arrived('/restart', 1);
    await platform.stop({ keepData: true });
    const beforeRestart = receiver.received('/restart').length;
    expect(beforeRestart).toBeLessThan(leadIds.length);

    platform = await startTestPlatform(SETTINGS, dataDir);
    api = platform.client(token);
    const requests = await arrived('/restart', leadIds.length);
    const log = await settled(hook.id, leadIds.length, 'succeeded', api);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const ids = receiver.received('/restart').map((request) => request.headers['webhook-id']);
    expect(new Set(ids).size).toBe(leadIds.length);
    expect(ids).toHaveLength(leadIds.length);
    const delivered = requests.map((request) => verified(hook.secret, request).data.resource.id);
    expect(new Set(delivered)).toEqual(new Set(leadIds));
    expect(log.every((entry) => entry.attemptCount === 1)).toBe(true);
  }, 60_000);
});

describe('every emitting service reaches the consumers (topics from contracts/)', () => {
  it('delivers export.queued, audits POST /exports with its headers and lists it in /changes', async () => {
    const hook = await subscribe('/exports', ['export.queued']);
    const created = await api.post(
      '/exports',
      {},
      { 'x-request-id': 'req-export-1', 'x-agent-run-id': 'run-export', 'x-agent-task': 'back up' },
    );
    expect(created.status).toBe(201);
    const exportId = (created.body.export as { id: string }).id;
    const [request] = await arrived('/exports', 1);
    expect(verified(hook.secret, request as Received)).toMatchObject({
      type: 'export.queued',
      data: { resource: { id: exportId } },
    });
    const [entry] = await eventually(async () => {
      const found = (await api.get(`/audit?resourceId=${exportId}`)).body.items as Body[];
      return found.length ? found : undefined;
    });
    expect(entry).toMatchObject({
      operation: 'createExport',
      requestId: 'req-export-1',
      agent: { runId: 'run-export', task: 'back up' },
    });
    await eventually(async () => {
      const changes = (await api.get('/changes?limit=100')).body.items as Body[];
      return changes.some((change) => change.kind === 'export' && change.id === exportId) || undefined;
    });
  });
});
