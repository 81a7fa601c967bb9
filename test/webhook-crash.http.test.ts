// Webhook delivery across a real crash: the platform runs as a child process and is SIGKILLed
// while deliveries are in flight and queued (no shutdown handler runs, no attempt is finished).
// After a restart on the same data every event still arrives, under one webhook-id each, with
// one delivery record each: a receiver that drops repeats by webhook-id sees every event once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { eventually, httpClient, type Client } from './support/harness.ts';
import { killHard, spawnPlatform, type PlatformChild } from './support/platform-child.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const ADMIN_SECRET = 'webhook-crash-admin-secret';
const LEADS = 20;

type Child = PlatformChild;

let dataDir: string;
let receiver: WebhookReceiver;
const children = new Set<Child>();

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fieldops-webhook-crash-'));
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const child of children) await killHard(child);
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function startChild(): Promise<Child> {
  const child = await spawnPlatform({
    dataDir,
    adminSecret: ADMIN_SECRET,
    env: {
      FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1',
      FIELDOPS_WEBHOOK_RETRY_DELAYS_MS: '200,200,200',
      FIELDOPS_WEBHOOK_TIMEOUT_MS: '3000',
      // A killed dispatcher's claims run out after 4 s instead of 33 s.
      FIELDOPS_WEBHOOK_LEASE_MS: '4000',
      FIELDOPS_WEBHOOK_POLL_MS: '50',
    },
  });
  children.add(child);
  return child;
}

async function crash(child: Child): Promise<void> {
  expect((await killHard(child)).signal).toBe('SIGKILL');
  children.delete(child);
}

async function tenantToken(child: Child): Promise<string> {
  const admin = httpClient<string>(`${child.url}/admin/v1`, ADMIN_SECRET);
  const tenant = await admin.post('/tenants', { name: 'Crash Hooks Co' });
  const tenantId = (tenant.body.tenant as { id: string }).id;
  const token = await admin.post(`/tenants/${tenantId}/tokens`, { role: 'Manager' });
  return (token.body.token as { secret: string }).secret;
}

describe('webhook delivery across SIGKILL', () => {
  it('loses no event and creates no second delivery for one', async () => {
    // The first eight answers are held until after the kill: the dispatcher's eight slots are
    // busy then, whatever the machine's speed, so the kill always cuts deliveries off mid-way.
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    receiver.script('/crash', (n) => ({ status: 200, hold: n <= 8 ? held : undefined, delayMs: 50 }));
    let child = await startChild();
    const token = await tenantToken(child);
    let api: Client = httpClient(`${child.url}/api/v1`, token);
    const created = await api.post('/webhooks', {
      url: receiver.url('/crash'),
      eventTypes: ['lead.created'],
    });
    expect(created.status).toBe(201);
    const { id: hookId } = created.body.webhook as { id: string };
    const secret = created.body.secret as string;
    const leadIds: string[] = [];
    for (let i = 0; i < LEADS; i++) {
      const lead = await api.post('/leads', { name: `Crash Lead ${i}` });
      leadIds.push((lead.body.lead as { id: string }).id);
    }

    await eventually(async () => (receiver.received('/crash').length >= 1 ? true : undefined), 15_000);
    await crash(child);
    release();
    const distinctBefore = new Set(receiver.received('/crash').map((r) => r.headers['webhook-id'])).size;
    expect(distinctBefore).toBeLessThan(LEADS);

    child = await startChild();
    api = httpClient(`${child.url}/api/v1`, token);
    const log = await eventually(async () => {
      const reply = await api.get(`/webhooks/${hookId}/deliveries?limit=100`);
      const items = reply.body.items as { status: string; eventId: string }[];
      return items.length === LEADS && items.every((item) => item.status === 'succeeded') ? items : undefined;
    }, 30_000);

    const requests = receiver.received('/crash');
    const byId = new Map<string, Set<string>>();
    for (const request of requests) {
      const id = request.headers['webhook-id'] as string;
      byId.set(id, (byId.get(id) ?? new Set()).add(request.body));
    }
    // Every event arrived; a repeat (an attempt cut off by the kill) carries the same id and body.
    expect(byId.size).toBe(LEADS);
    expect([...byId.values()].every((bodies) => bodies.size === 1)).toBe(true);
    expect(new Set(log.map((entry) => entry.eventId))).toEqual(new Set(byId.keys()));
    const delivered = requests.map(
      (request) =>
        (new Webhook(secret).verify(request.body, request.headers) as { data: { resource: { id: string } } })
          .data.resource.id,
    );
    expect(new Set(delivered)).toEqual(new Set(leadIds));
    await crash(child);
  }, 120_000);
});
