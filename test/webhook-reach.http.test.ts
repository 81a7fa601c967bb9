// Webhooks held to their token (issue 32): a subscription reaches no further than the credential
// that made it could read. A narrowed token cannot subscribe to event types it may not read, a
// project-restricted token's subscription receives only its projects' events, revoking the token
// disables its subscriptions, and a tenant holds at most FIELDOPS_WEBHOOK_MAX_SUBSCRIPTIONS.
//
// "Nothing arrived" is never waited for: a sentinel subscription of an unrestricted token is
// evaluated for the same event in the same pass of the dispatcher, so once the sentinel has its
// delivery, the held subscription's fate for that event is decided and can be read back.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  eventually,
  startTestPlatform,
  type Body,
  type Client,
  type TestPlatform,
} from './support/harness.ts';
import { newCustomer, newProject } from './support/projects.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const MAX_SUBSCRIPTIONS = 4;
const FAST_DISPATCH = {
  FIELDOPS_WEBHOOK_POLL_MS: '50',
  FIELDOPS_WEBHOOK_MAX_SUBSCRIPTIONS: String(MAX_SUBSCRIPTIONS),
};
const WAIT_MS = 20_000;

let platform: TestPlatform;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // The dispatcher and the cap read the environment (docs/configuration.md): the harness sets it
  // for the platform, and a cluster's processes are started with it.
  platform = await startTestPlatform({ FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1', ...FAST_DISPATCH });
  receiver = await startReceiver();
});
afterAll(async () => {
  await platform.stop();
  await receiver.close();
});

async function subscribe(client: Client, path: string, eventTypes?: string[]): Promise<string> {
  const reply = await client.post('/webhooks', {
    url: receiver.url(path),
    ...(eventTypes ? { eventTypes } : {}),
  });
  expect(reply.status).toBe(201);
  return (reply.body.webhook as { id: string }).id;
}

const arrived = (path: string, count: number) =>
  eventually(async () => {
    const got = receiver.received(path);
    return got.length >= count ? got : undefined;
  }, WAIT_MS);

async function deliveryTypes(client: Client, subscriptionId: string): Promise<string[]> {
  const reply = await client.get(`/webhooks/${subscriptionId}/deliveries?limit=100`);
  expect(reply.status).toBe(200);
  return (reply.body.items as { eventType: string }[]).map((item) => item.eventType);
}

const resourceIds = (path: string) =>
  receiver
    .received(path)
    .map((request) => (JSON.parse(request.body) as { data: { resource: { id: string } } }).data.resource.id);

describe('POST /webhooks held to what the token may read', () => {
  it('refuses a settings-only token a lead.created subscription, naming the type and the scope', async () => {
    const { tenantId, api } = await platform.tenant('Narrowed Hooks Co');
    const narrowed = await platform.token(tenantId, {
      role: 'Manager',
      permissions: { settings: ['read', 'create', 'update'] },
    });
    const refused = await narrowed.api.post('/webhooks', {
      url: receiver.url('/narrowed/leads'),
      eventTypes: ['lead.created'],
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      ok: false,
      code: 'out_of_scope',
      required: { action: 'read', kind: 'lead' },
    });
    expect(refused.body.error).toContain('lead.created');
    expect(refused.body.error).toContain('read on lead');
    expect((await api.get('/webhooks')).body.items).toEqual([]);

    // "Every type" is held to the token too: the lead goes to the sentinel, never to the narrowed one.
    const everything = await subscribe(narrowed.api, '/narrowed/every');
    const sentinel = await subscribe(api, '/narrowed/sentinel', ['lead.created']);
    const lead = await api.post('/leads', { name: 'Kept From Settings Token' });
    expect(lead.status).toBe(201);
    await arrived('/narrowed/sentinel', 1);
    expect(await deliveryTypes(api, sentinel)).toEqual(['lead.created']);
    expect(await deliveryTypes(api, everything)).toEqual([]);
    expect(receiver.received('/narrowed/every')).toEqual([]);
  });

  it('refuses a re-aim through PATCH to a type the token may not read', async () => {
    const { tenantId } = await platform.tenant('Narrowed Patch Co');
    const narrowed = await platform.token(tenantId, {
      role: 'Manager',
      permissions: { settings: ['read', 'create', 'update'], customer: ['read'] },
    });
    const id = await subscribe(narrowed.api, '/narrowed/patch', ['customer.created']);
    const refused = await narrowed.api.patch(
      `/webhooks/${id}`,
      { eventTypes: ['lead.converted'] },
      { 'if-match': '*' },
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'out_of_scope', required: { action: 'read', kind: 'lead' } });
    expect(refused.body.error).toContain('lead.converted');
  });
});

describe('deliveries of a project-restricted token', () => {
  it("receive only its project's events; an unrestricted subscription receives both", async () => {
    const { tenantId, api } = await platform.tenant('Restricted Hooks Co');
    const customerId = await newCustomer(api);
    const mine = await newProject(api, customerId, { name: 'Mine' });
    const other = await newProject(api, customerId, { name: 'Other' });
    const restricted = await platform.token(tenantId, { role: 'Manager', projectIds: [mine.id] });
    const held = await subscribe(restricted.api, '/restricted/mine', ['project.updated']);
    const sentinel = await subscribe(api, '/restricted/all', ['project.updated']);

    for (const project of [other, mine]) {
      const reply = await api.patch(
        `/projects/${project.id}`,
        { name: `${project.id} renamed` },
        { 'if-match': '*' },
      );
      expect(reply.status).toBe(200);
    }
    await arrived('/restricted/all', 2);
    expect(new Set(resourceIds('/restricted/all'))).toEqual(new Set([mine.id, other.id]));
    expect(await deliveryTypes(api, sentinel)).toHaveLength(2);
    await arrived('/restricted/mine', 1);
    expect(await deliveryTypes(api, held)).toEqual(['project.updated']);
    expect(resourceIds('/restricted/mine')).toEqual([mine.id]);
    const view = (await api.get(`/webhooks/${held}`)).body.webhook as Body;
    expect(view.heldBy).toBe(restricted.id);
  });
});

describe('revoking the token a subscription is held to', () => {
  it('disables the subscription (credential_revoked) and nothing more is delivered to it', async () => {
    const { tenantId, api } = await platform.tenant('Revoked Hooks Co');
    const revocable = await platform.token(tenantId, { role: 'Manager' });
    const held = await subscribe(revocable.api, '/revoked/held', ['lead.created']);
    expect((await api.post('/leads', { name: 'Before Revoke' })).status).toBe(201);
    await arrived('/revoked/held', 1);

    const revoked = await platform.admin.post(`/tenants/${tenantId}/tokens/${revocable.id}/revoke`, {});
    expect(revoked.status).toBe(200);
    const disabled = await eventually(async () => {
      const view = (await api.get(`/webhooks/${held}`)).body.webhook as Body;
      return view.status === 'disabled' ? view : undefined;
    }, WAIT_MS);
    expect(disabled.disabledReason).toBe('credential_revoked');

    const sentinel = await subscribe(api, '/revoked/sentinel', ['lead.created']);
    expect((await api.post('/leads', { name: 'After Revoke' })).status).toBe(201);
    await arrived('/revoked/sentinel', 1);
    expect(await deliveryTypes(api, sentinel)).toEqual(['lead.created']);
    expect(await deliveryTypes(api, held)).toEqual(['lead.created']);
    expect(receiver.received('/revoked/held')).toHaveLength(1);
  });
});

describe('the cap on subscriptions per tenant', () => {
  it(`refuses the ${MAX_SUBSCRIPTIONS + 1}th with 409 naming the cap, and stores nothing`, async () => {
    const { api } = await platform.tenant('Capped Hooks Co');
    for (let n = 1; n <= MAX_SUBSCRIPTIONS; n++) await subscribe(api, `/capped/${n}`, ['lead.created']);
    const refused = await api.post('/webhooks', {
      url: receiver.url('/capped/over'),
      eventTypes: ['lead.created'],
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ ok: false, code: 'conflict', limit: MAX_SUBSCRIPTIONS });
    expect(refused.body.error).toContain(`the cap is ${MAX_SUBSCRIPTIONS} per tenant`);
    expect((await api.get('/webhooks?limit=100')).body.items).toHaveLength(MAX_SUBSCRIPTIONS);
    // Another tenant's room is its own.
    const { api: other } = await platform.tenant('Uncapped Neighbour Co');
    await subscribe(other, '/capped/neighbour', ['lead.created']);
  });
});
