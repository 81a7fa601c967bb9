// The SSRF refusals of webhook target URLs (issue 23): a platform with the default settings (no
// FIELDOPS_WEBHOOK_ALLOW_PRIVATE) refuses private, loopback and link-local targets, however they
// are spelled, and a name that resolves to one, without saying what it resolved to.
import { describe, expect, it } from '@jest/globals';
import { type Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const { api: strictApi } = await suiteTenant('Strict Co');

const webhook = (reply: { body: Body }) => reply.body.webhook as Body & { id: string; url: string };

describe('SSRF: targets on private addresses are refused unless the operator allows them', () => {
  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://10.1.2.3/hook',
    'http://172.16.0.5/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[fe80::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://0.0.0.0/hook',
    'http://[::7f00:1]/hook',
    'http://[2002:7f00:1::]/hook',
    'http://[2001::1]/hook',
    'http://[64:ff9b::a9fe:a9fe]/hook',
    'http://[fd00::1]/hook',
  ])('refuses %s with field_invalid and stores nothing', async (url) => {
    const reply = await strictApi.post('/webhooks', { url });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('field_invalid');
    expect(reply.body.error).toMatch(/private, loopback or link-local/);
    expect((await strictApi.get('/webhooks')).body.items).toEqual([]);
  });

  it('refuses a name that resolves to a private address without saying what it resolved to', async () => {
    const reply = await strictApi.post('/webhooks', { url: 'http://localhost:9/hook' });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('field_invalid');
    expect(reply.body.error).toMatch(/localhost resolves to a private, loopback or link-local address/);
    expect(JSON.stringify(reply.body)).not.toMatch(/127\.0\.0\.1|::1\b|\[::/);
  });

  it('refuses moving an existing subscription to a private address', async () => {
    const created = await strictApi.post('/webhooks', { url: 'http://93.184.215.14/hook' });
    expect(created.status).toBe(201);
    const id = webhook(created).id;
    const moved = await strictApi.patch(`/webhooks/${id}`, { url: 'http://10.0.0.1/x' }, { 'if-match': '*' });
    expect(moved.status).toBe(400);
    expect(moved.body.code).toBe('field_invalid');
    expect(webhook(await strictApi.get(`/webhooks/${id}`)).url).toBe('http://93.184.215.14/hook');
  });
});
