// Webhook subscriptions and the event-type catalogue through HTTP (ENDPOINTS rows 79–86 and the
// secret rotation): the secret shown once, the event-type filter checked against the catalogue,
// If-Match on amendments, scopes and tenant isolation. The SSRF refusals of target URLs, on a
// platform that does not allow private targets, are test/webhook-ssrf.http.test.ts.
import { describe, expect, it } from '@jest/globals';
import { WEBHOOK_EVENT_TYPES } from '@fieldops/contracts';
import { eventually, type Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const ALLOW_PRIVATE = { FIELDOPS_WEBHOOK_ALLOW_PRIVATE: '1' };
const TARGET = 'http://127.0.0.1:9/hooks';

const { platform, api, tenantId } = await suiteTenant('Hooks Co', ALLOW_PRIVATE);

type Webhook = Body & { id: string; etag: string; status: string; eventTypes: string[]; secretHint: string };
const webhook = (reply: { body: Body }) => reply.body.webhook as Webhook;

async function create(body: Body = {}) {
  const reply = await api.post('/webhooks', { url: TARGET, eventTypes: ['lead.created'], ...body });
  expect(reply.status).toBe(201);
  return { hook: webhook(reply), secret: reply.body.secret as string };
}

async function count(): Promise<number> {
  return ((await api.get('/webhooks?limit=100')).body.items as unknown[]).length;
}

describe('GET /event-types', () => {
  it('lists the catalogue with the four events the spec names, to any valid token', async () => {
    const staff = await platform.token(tenantId, { role: 'Staff' });
    const reply = await staff.api.get('/event-types');
    expect(reply.status).toBe(200);
    const items = reply.body.items as { type: string; named: boolean; summary: string }[];
    expect(items.map((item) => item.type)).toEqual(WEBHOOK_EVENT_TYPES.map((entry) => entry.type));
    expect(items.filter((item) => item.named).map((item) => item.type)).toEqual(
      expect.arrayContaining(['lead.created', 'scene.ready', 'proposal.signed', 'payment.received']),
    );
    expect(items.every((item) => item.summary.length > 0)).toBe(true);
  });

  it('needs a credential', async () => {
    const reply = await platform.anonymous.get('/event-types');
    expect(reply.status).toBe(401);
    expect(reply.body.code).toBe('no_credential');
  });
});

describe('POST /webhooks', () => {
  it('creates an enabled subscription and shows a Standard Webhooks secret once', async () => {
    const reply = await api.post('/webhooks', {
      url: TARGET,
      description: 'CRM sync',
      eventTypes: ['lead.created', 'payment.received'],
    });
    expect(reply.status).toBe(201);
    const hook = webhook(reply);
    expect(hook.id).toMatch(/^whk_/);
    expect(hook).toMatchObject({
      url: TARGET,
      description: 'CRM sync',
      status: 'enabled',
      eventTypes: ['lead.created', 'payment.received'],
    });
    const secret = reply.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(hook.secretHint).toBe(`whsec_…${secret.slice(-4)}`);

    const read = await api.get(`/webhooks/${hook.id}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toContain(hook.etag);
    expect(JSON.stringify(read.body)).not.toContain(secret.slice('whsec_'.length));
    const list = await api.get('/webhooks');
    expect((list.body.items as Webhook[]).map((item) => item.id)).toContain(hook.id);
    expect(JSON.stringify(list.body)).not.toContain(secret.slice('whsec_'.length));
  });

  it('takes every event type when eventTypes is omitted', async () => {
    const reply = await api.post('/webhooks', { url: TARGET });
    expect(reply.status).toBe(201);
    expect(webhook(reply).eventTypes).toEqual([]);
  });

  it('refuses an event type not in the catalogue, and stores nothing', async () => {
    const before = await count();
    const reply = await api.post('/webhooks', { url: TARGET, eventTypes: ['lead.created', 'lead.exploded'] });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('field_invalid_enum');
    expect(await count()).toBe(before);
  });

  it('refuses a missing url, a non-http url, an empty eventTypes and unknown fields', async () => {
    const before = await count();
    expect((await api.post('/webhooks', { eventTypes: ['lead.created'] })).body.code).toBe('field_required');
    const ftp = await api.post('/webhooks', { url: 'ftp://example.com/x' });
    expect(ftp.status).toBe(400);
    expect(ftp.body.code).toBe('field_invalid');
    expect(ftp.body.error).toMatch(/https/);
    expect((await api.post('/webhooks', { url: 'not a url' })).body.code).toBe('field_invalid');
    expect((await api.post('/webhooks', { url: TARGET, eventTypes: [] })).status).toBe(400);
    expect((await api.post('/webhooks', { url: TARGET, secret: 'mine' })).body.code).toBe('unknown_field');
    expect(await count()).toBe(before);
  });

  it('is exactly once with an opId: a replay answers the same subscription', async () => {
    const first = await api.post('/webhooks', { url: TARGET, opId: 'hook-once' });
    const again = await api.post('/webhooks', { url: TARGET, opId: 'hook-once' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect(webhook(again).id).toBe(webhook(first).id);
  });
});

describe('GET /webhooks', () => {
  it('pages newest first and refuses a limit that is not a number or an unknown parameter', async () => {
    const older = await create();
    const newer = await create();
    const first = await api.get('/webhooks?limit=1');
    expect((first.body.items as Webhook[]).map((item) => item.id)).toEqual([newer.hook.id]);
    const second = await api.get(
      `/webhooks?limit=1&cursor=${encodeURIComponent(first.body.nextCursor as string)}`,
    );
    expect((second.body.items as Webhook[]).map((item) => item.id)).toEqual([older.hook.id]);
    expect((await api.get('/webhooks?limit=abc')).body.code).toBe('field_invalid');
    expect((await api.get('/webhooks?status=enabled')).body.code).toBe('unknown_field');
  });
});

describe('PATCH /webhooks/:id', () => {
  it('needs If-Match (428), refuses a stale one (409 with the current subscription)', async () => {
    const { hook } = await create();
    expect((await api.patch(`/webhooks/${hook.id}`, { description: 'x' })).status).toBe(428);
    await api.patch(`/webhooks/${hook.id}`, { description: 'first' }, { 'if-match': hook.etag });
    const stale = await api.patch(
      `/webhooks/${hook.id}`,
      { description: 'second' },
      { 'if-match': hook.etag },
    );
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('conflict');
    expect((stale.body.current as Webhook).description).toBe('first');
  });

  it('amends the url, description and event types', async () => {
    const { hook } = await create();
    const reply = await api.patch(
      `/webhooks/${hook.id}`,
      { url: 'http://127.0.0.1:10/other', description: 'moved', eventTypes: ['proposal.signed'] },
      { 'if-match': hook.etag },
    );
    expect(reply.status).toBe(200);
    expect(webhook(reply)).toMatchObject({
      url: 'http://127.0.0.1:10/other',
      description: 'moved',
      eventTypes: ['proposal.signed'],
    });
    expect((await api.get(`/webhooks/${hook.id}`)).body.webhook).toMatchObject({ description: 'moved' });
  });

  it('disables with enabled false (reason manual) and enables again with enabled true', async () => {
    const { hook } = await create();
    const off = await api.patch(`/webhooks/${hook.id}`, { enabled: false }, { 'if-match': '*' });
    expect(webhook(off)).toMatchObject({ status: 'disabled', disabledReason: 'manual' });
    expect(webhook(off).disabledAt).not.toBe('');
    const on = await api.patch(`/webhooks/${hook.id}`, { enabled: true }, { 'if-match': '*' });
    expect(webhook(on)).toMatchObject({ status: 'enabled', disabledReason: '', disabledAt: '' });
  });

  it('refuses an unknown event type, an empty body and unknown fields without changing anything', async () => {
    const { hook } = await create();
    const bad = await api.patch(`/webhooks/${hook.id}`, { eventTypes: ['nope'] }, { 'if-match': '*' });
    expect(bad.body.code).toBe('field_invalid_enum');
    expect((await api.patch(`/webhooks/${hook.id}`, {}, { 'if-match': '*' })).body.code).toBe('invalid_body');
    const unknown = await api.patch(`/webhooks/${hook.id}`, { status: 'enabled' }, { 'if-match': '*' });
    expect(unknown.body.code).toBe('unknown_field');
    expect(webhook(await api.get(`/webhooks/${hook.id}`)).etag).toBe(hook.etag);
  });

  it('answers 404 for a subscription that does not exist', async () => {
    const reply = await api.patch('/webhooks/whk_missing', { description: 'x' }, { 'if-match': '*' });
    expect(reply.status).toBe(404);
  });
});

describe('POST /webhooks/:id/rotate-secret', () => {
  it('shows a new secret once and keeps the old one signing for 24 hours', async () => {
    const { hook, secret } = await create();
    const reply = await api.post(`/webhooks/${hook.id}/rotate-secret`);
    expect(reply.status).toBe(200);
    const rotated = reply.body.secret as string;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect(webhook(reply).secretHint).toBe(`whsec_…${rotated.slice(-4)}`);
    const overlap = Date.parse(webhook(reply).previousSecretExpiresAt as string) - Date.now();
    expect(overlap).toBeGreaterThan(23 * 3600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);
    expect((await api.post('/webhooks/whk_missing/rotate-secret')).status).toBe(404);
  });
});

describe('DELETE /webhooks/:id', () => {
  it('deletes the subscription; it is gone afterwards', async () => {
    const { hook } = await create();
    const reply = await api.request('DELETE', `/webhooks/${hook.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.deleted).toBe(true);
    expect((await api.get(`/webhooks/${hook.id}`)).status).toBe(404);
    expect((await api.request('DELETE', `/webhooks/${hook.id}`)).status).toBe(404);
    expect((await api.get(`/webhooks/${hook.id}/deliveries`)).status).toBe(404);
  });
});

describe('audit trail', () => {
  it('records every subscription write against the token', async () => {
    const { hook } = await create();
    await api.post(`/webhooks/${hook.id}/rotate-secret`);
    const actions = await eventually(async () => {
      const reply = await api.get(`/audit?resourceId=${hook.id}`);
      const found = (reply.body.items as { action: string }[]).map((entry) => entry.action);
      return found.length >= 2 ? found : undefined;
    });
    expect(actions.sort()).toEqual(['webhook.created', 'webhook.secret_rotated']);
  });
});

describe('delivery log endpoints', () => {
  it('list an empty log for a new subscription, 404 for unknown ids', async () => {
    const { hook } = await create();
    const log = await api.get(`/webhooks/${hook.id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.items).toEqual([]);
    expect((await api.get(`/webhooks/${hook.id}/deliveries?status=lost`)).body.code).toBe(
      'field_invalid_enum',
    );
    expect((await api.get('/webhooks/whk_missing/deliveries')).status).toBe(404);
    expect((await api.post(`/webhooks/${hook.id}/deliveries/dlv_missing/retry`)).status).toBe(404);
  });
});

describe('scopes and tenants', () => {
  it('needs the settings scope: Staff is refused, a Viewer reads but cannot write', async () => {
    const { hook } = await create();
    const staff = await platform.token(tenantId, { role: 'Staff' });
    const denied = await staff.api.get('/webhooks');
    expect(denied.status).toBe(403);
    expect(denied.body.required).toEqual({ action: 'read', kind: 'settings' });
    const viewer = await platform.token(tenantId, { role: 'Viewer' });
    expect((await viewer.api.get(`/webhooks/${hook.id}`)).status).toBe(200);
    const write = await viewer.api.post('/webhooks', { url: TARGET });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('read_only');
    expect((await viewer.api.post(`/webhooks/${hook.id}/rotate-secret`)).status).toBe(403);
  });

  it("never shows one tenant's subscription to another", async () => {
    const { hook } = await create();
    const other = await platform.tenant('Other Co');
    expect((await other.api.get(`/webhooks/${hook.id}`)).status).toBe(404);
    expect((await other.api.get('/webhooks')).body.items).toEqual([]);
    expect((await other.api.request('DELETE', `/webhooks/${hook.id}`)).status).toBe(404);
  });
});
