// The console's HTTP edges: every /console path and every portal call it makes refuses a bearer
// token with 401 no_session (spec: session-only paths), a session never works on /api/v1, the
// audit calls need read on settings, and the pages carry a CSP that allows nothing off-site.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, portalSession } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

let manager: Record<string, string>;

const { platform, tenantId, token } = await suiteTenant('Console Edge Co');
beforeAll(async () => {
  manager = await portalSession(platform, tenantId, { role: 'Manager', email: 'boss@edge.test' });
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${platform.url}${path}`, { headers, redirect: 'manual' });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: () => JSON.parse(text) as Record<string, unknown>,
  };
};

describe('console edges', () => {
  it.each([
    '/console/',
    '/console/tokens',
    '/console/audit',
    '/console/console.js',
    '/console',
    '/api/portal/audit',
    '/api/portal/audit/verify',
    '/api/portal/token-options',
  ])('refuses a bearer token at %s with 401 no_session', async (path) => {
    const reply = await get(path, { authorization: `Bearer ${token}` });
    expect(reply.status).toBe(401);
    expect(reply.json()).toMatchObject({ ok: false, code: 'no_session' });
  });

  it('never accepts a portal session on /api/v1', async () => {
    const reply = await get('/api/v1/me', { cookie: manager['cookie'] ?? '' });
    expect(reply.status).toBe(401);
    expect(reply.json()).toMatchObject({ ok: false, code: 'no_credential' });
  });

  it('serves the pages with a CSP that allows only this origin, and redirects /console to /console/', async () => {
    const page = await get('/console/tokens');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'; script-src 'self'");
    expect(page.text).not.toMatch(/https?:\/\//);
    expect((await get('/console')).headers.get('location')).toBe('/console/');
  });

  it('lists the audit trail newest first and verifies the chain for a manager session', async () => {
    // Entries reach the audit service from the outbox, asynchronously.
    const items = await eventually(async () => {
      const entries = await get('/api/portal/audit?limit=5', manager);
      expect(entries.status).toBe(200);
      const listed = entries.json()['items'] as { seq: number }[];
      return listed.length > 1 ? listed : undefined;
    });
    expect(items.map((e) => e.seq)).toEqual([...items.map((e) => e.seq)].sort((a, b) => b - a));
    // Without limit: the default page (issue 23: this was a 500).
    const whole = await get('/api/portal/audit', manager);
    expect(whole.status).toBe(200);
    expect((whole.json()['items'] as unknown[]).length).toBeGreaterThanOrEqual(items.length);
    const over = await get('/api/portal/audit?limit=1000', manager);
    expect(over.status).toBe(200);
    const verified = await get('/api/portal/audit/verify', manager);
    expect(verified.json()).toMatchObject({ ok: true, valid: true });
  });

  it('answers a bad filter with the field named, and refuses the audit to a role without settings', async () => {
    const bad = await get('/api/portal/audit?colour=blue', manager);
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'unknown_field', field: 'colour' });
    const staff = await portalSession(platform, tenantId, { role: 'Staff', email: 'crew@edge.test' });
    const refused = await get('/api/portal/audit', staff);
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'role_denied' });
  });

  it('offers the issue form the roles, the vocabulary and, to managers only, the members', async () => {
    const options = (await get('/api/portal/token-options', manager)).json();
    expect(options).toMatchObject({ ok: true, canBindOthers: true });
    expect((options['members'] as unknown[]).length).toBeGreaterThan(0);
    expect(JSON.stringify(options)).not.toContain('passwordHash');
    const staff = await portalSession(platform, tenantId, { role: 'Staff', email: 'crew2@edge.test' });
    expect((await get('/api/portal/token-options', staff)).json()).toMatchObject({
      canBindOthers: false,
      members: [],
    });
  });
});
