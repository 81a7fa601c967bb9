// Authentication and the permission gate through HTTP (spec: Authentication 1–4, Errors).
import { describe, expect, it } from '@jest/globals';
import { type Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';

const { platform, tenantId } = await suiteTenant('Auth Co');

describe('401: dead or missing credentials', () => {
  it('answers no_credential with WWW-Authenticate when no token is sent', async () => {
    const reply = await platform.anonymous.get('/leads');
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ ok: false, code: 'no_credential', retryable: false });
    expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer realm="fieldops"/);
    expect(reply.headers.get('x-ratelimit-bucket')).toBe('reads');
  });

  it('answers invalid_token for an unknown or malformed token', async () => {
    for (const secret of ['fop_' + 'x'.repeat(40), 'garbage']) {
      const reply = await platform.client(secret).get('/leads');
      expect(reply.status).toBe(401);
      expect(reply.body.code).toBe('invalid_token');
      expect(reply.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
  });

  it('answers revoked on the very next call after a revoke', async () => {
    const token = await platform.token(tenantId, { role: 'Manager' });
    expect((await token.api.get('/leads')).status).toBe(200);
    const revoked = await platform.admin.post(`/tenants/${tenantId}/tokens/${token.id}/revoke`, {});
    expect(revoked.status).toBe(200);
    const reply = await token.api.get('/leads');
    expect(reply.status).toBe(401);
    expect(reply.body.code).toBe('revoked');
    expect(reply.headers.get('www-authenticate')).toBeTruthy();
  });

  it('answers expired once a time-limited token has lapsed', async () => {
    const token = await platform.token(tenantId, {
      role: 'Manager',
      expiresAt: new Date(Date.now() + 400).toISOString(),
    });
    expect((await token.api.get('/leads')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const reply = await token.api.get('/leads');
    expect(reply.status).toBe(401);
    expect(reply.body.code).toBe('expired');
  });
});

describe('403: valid but not permitted, naming the missing scope', () => {
  it('gives a Viewer read_only on a write', async () => {
    const viewer = await platform.token(tenantId, { role: 'Viewer' });
    expect((await viewer.api.get('/leads')).status).toBe(200);
    const reply = await viewer.api.post('/leads', { name: 'Nope' });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: 'read_only', required: { action: 'create', kind: 'lead' } });
  });

  it('gives Staff role_denied on settings (the audit trail)', async () => {
    const staff = await platform.token(tenantId, { role: 'Staff' });
    const reply = await staff.api.get('/audit');
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: 'role_denied', required: { action: 'read', kind: 'settings' } });
  });

  it('gives a token narrowed below its role out_of_scope', async () => {
    const narrowed = await platform.token(tenantId, {
      role: 'Manager',
      permissions: { lead: ['read', 'create'] },
    });
    expect((await narrowed.api.post('/leads', { name: 'Allowed' })).status).toBe(201);
    const reply = await narrowed.api.get('/customers');
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({
      code: 'out_of_scope',
      required: { action: 'read', kind: 'customer' },
    });
  });

  it('applies a custom role and never lets a token exceed it', async () => {
    const role = await platform.admin.post(`/tenants/${tenantId}/roles`, {
      name: 'Lead Desk',
      permissions: { lead: ['read', 'create', 'update'] },
    });
    expect(role.status).toBe(201);
    const desk = await platform.token(tenantId, { role: 'Lead Desk' });
    expect((await desk.api.post('/leads', { name: 'Desk lead' })).status).toBe(201);
    const denied = await desk.api.post('/customers', { name: 'No' });
    expect(denied.body).toMatchObject({
      code: 'role_denied',
      required: { action: 'create', kind: 'customer' },
    });
    const exceeding = await platform.admin.post(`/tenants/${tenantId}/tokens`, {
      role: 'Lead Desk',
      permissions: { customer: ['read'] },
    });
    expect(exceeding.status).toBe(400);
  });

  it('keeps tenants apart: a record of another tenant is 404', async () => {
    const other = await platform.tenant('Other Co');
    const mine = await platform.tenant('Mine Co');
    const created = await other.api.post('/leads', { name: 'Theirs' });
    const reply = await mine.api.get(`/leads/${(created.body.lead as Body).id as string}`);
    expect(reply.status).toBe(404);
  });
});

describe('/me and /capabilities', () => {
  it('describes the token: tenant, role, effective permissions, limits and budgets left', async () => {
    const narrowed = await platform.token(tenantId, { role: 'Staff', permissions: { lead: ['read'] } });
    const me = await narrowed.api.get('/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      token: { id: narrowed.id, role: 'Staff', narrowed: true },
      tenant: { id: tenantId },
      permissions: { lead: ['read'] },
      limits: { requestsPerMinute: { reads: expect.any(Number), writes: expect.any(Number) } },
    });
    expect((me.body.budgets as Body).compute).toMatchObject({ remaining: expect.any(Number) });
  });

  it('says per endpoint whether the token may call it and why not', async () => {
    const viewer = await platform.token(tenantId, { role: 'Viewer' });
    const reply = await viewer.api.get('/capabilities');
    const endpoints = reply.body.endpoints as {
      operationId: string;
      allowed: boolean;
      refusal?: { code: string };
    }[];
    const byId = new Map(endpoints.map((e) => [e.operationId, e]));
    expect(byId.get('listLeads')?.allowed).toBe(true);
    expect(byId.get('createLead')).toMatchObject({ allowed: false, refusal: { code: 'read_only' } });
    expect(byId.get('getOpenApi')?.allowed).toBe(true);
  });

  it('needs a token', async () => {
    expect((await platform.anonymous.get('/me')).body.code).toBe('no_credential');
  });
});

describe('the portal takes browser sessions only', () => {
  it('refuses a bearer token with 401 no_session', async () => {
    const manager = await platform.token(tenantId, { role: 'Manager' });
    const res = await fetch(`${platform.url}/api/portal/session`, {
      headers: { authorization: `Bearer ${manager.secret}` },
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as Body).code).toBe('no_session');
  });

  it('logs a member in with a cookie and issues tokens there that never exceed the member', async () => {
    const member = await platform.admin.post(`/tenants/${tenantId}/members`, {
      name: 'Sam Staff',
      email: 'sam@auth.test',
      role: 'Staff',
      password: 'correct horse battery',
    });
    expect(member.status).toBe(201);
    const login = await fetch(`${platform.url}/api/portal/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenantId, email: 'sam@auth.test', password: 'correct horse battery' }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^fieldops_session=/);
    const headers = { cookie, 'content-type': 'application/json', origin: platform.url };
    const tooMuch = await fetch(`${platform.url}/api/portal/tokens`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ role: 'Manager' }),
    });
    expect(tooMuch.status).toBe(403);
    expect(((await tooMuch.json()) as Body).code).toBe('role_denied');
    const issued = await fetch(`${platform.url}/api/portal/tokens`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ role: 'Staff' }),
    });
    expect(issued.status).toBe(201);
    const secret = (((await issued.json()) as Body).token as { secret: string }).secret;
    const me = await platform.client(secret).get('/me');
    expect(me.body).toMatchObject({ token: { role: 'Staff' } });
    expect((me.body.token as Body).memberId).toBe((member.body.member as Body).id);
  });
});
