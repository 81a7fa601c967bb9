// The operator admin API over real HTTP: express.json(), the router at /admin/v1, errorMiddleware.
import { authenticateBearer } from '../../src/identity/authenticate.ts';
import { createAdminRouter } from '../../src/identity/admin.router.ts';
import { call, openFixture, outboxEvents, PLATFORM_TENANT, serve } from './helpers.ts';
import type { CallOptions, Fixture, Reply, TestServer } from './helpers.ts';

const ADMIN_SECRET = 'test-admin-secret-0123456789';

let fx: Fixture;
let server: TestServer;

beforeAll(async () => {
  fx = await openFixture();
  server = await serve('/admin/v1', createAdminRouter(fx.identity, { adminSecret: ADMIN_SECRET }));
});
afterAll(async () => {
  await server.close();
  await fx.close();
});

const admin = (path: string, options: CallOptions = {}): Promise<Reply> =>
  call(`${server.url}${path}`, {
    ...options,
    headers: { authorization: `Bearer ${ADMIN_SECRET}`, ...options.headers },
  });
const post = (path: string, json: unknown) => admin(path, { method: 'POST', json });

async function createTenant(name: string): Promise<string> {
  const reply = await post('/tenants', { name });
  expect(reply.status).toBe(201);
  return (reply.body.tenant as { id: string }).id;
}

const expectError = (reply: Reply, status: number, code: string) => {
  expect({ status: reply.status, ok: reply.body.ok, code: reply.body.code }).toEqual({
    status,
    ok: false,
    code,
  });
  expect(typeof reply.body.error).toBe('string');
  expect(reply.body.retryable).toBe(false);
};

describe('operator authentication', () => {
  it('answers 401 no_credential with WWW-Authenticate when no secret is sent', async () => {
    const reply = await call(`${server.url}/tenants`);
    expectError(reply, 401, 'no_credential');
    expect(reply.headers.get('www-authenticate')).toBe('Bearer realm="fieldops"');
  });

  it('answers 401 invalid_token with WWW-Authenticate for a wrong secret or scheme', async () => {
    for (const authorization of [`Bearer ${ADMIN_SECRET}x`, `Basic ${ADMIN_SECRET}`, 'Bearer fop_x']) {
      const reply = await call(`${server.url}/tenants`, { headers: { authorization } });
      expectError(reply, 401, 'invalid_token');
      expect(reply.headers.get('www-authenticate')).toMatch(
        /^Bearer realm="fieldops", error="invalid_token"/,
      );
    }
  });

  it('refuses to build the router with a short admin secret', () => {
    expect(() => createAdminRouter(fx.identity, { adminSecret: 'short' })).toThrow(/at least 16/);
  });
});

describe('POST /tenants and GET /tenants', () => {
  it('creates a tenant with the default currency and vertical', async () => {
    const reply = await post('/tenants', { name: 'Skyline Surveys' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      ok: true,
      tenant: { name: 'Skyline Surveys', currency: 'USD', defaultVertical: 'survey' },
    });
    expect((reply.body.tenant as { id: string }).id).toMatch(/^ten_/);
  });

  it('takes a currency and a default vertical', async () => {
    const reply = await post('/tenants', { name: 'Euro Roofs', currency: 'eur', defaultVertical: 'roofing' });
    expect(reply.body.tenant).toMatchObject({ currency: 'EUR', defaultVertical: 'roofing' });
  });

  it('refuses bad bodies with the spec codes and creates nothing', async () => {
    const before = (await admin('/tenants?limit=100')).body.items as unknown[];
    expectError(await post('/tenants', {}), 400, 'field_required');
    expectError(await post('/tenants', { name: '' }), 400, 'field_required');
    expectError(await post('/tenants', { name: 'X', currency: 'XYZ' }), 400, 'field_invalid');
    expectError(await post('/tenants', { name: 'X', plan: 'gold' }), 400, 'unknown_field');
    expectError(await post('/tenants', { name: 'X'.repeat(201) }), 400, 'field_too_long');
    expectError(
      await admin('/tenants', {
        method: 'POST',
        body: '{"name":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_json',
    );
    expectError(await post('/tenants', ['name']), 400, 'invalid_body');
    const after = (await admin('/tenants?limit=100')).body.items as unknown[];
    expect(after).toHaveLength(before.length);
  });

  it('lists tenants page by page', async () => {
    await createTenant('Page A');
    await createTenant('Page B');
    const first = await admin('/tenants?limit=1');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(1);
    expect(typeof first.body.nextCursor).toBe('string');
    const second = await admin(`/tenants?limit=1&cursor=${String(first.body.nextCursor)}`);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.items).not.toEqual(first.body.items);
    expectError(await admin('/tenants?cursor=nonsense'), 400, 'field_invalid');
  });

  it('answers 404 not_found for an unknown tenant on every tenant path', async () => {
    expectError(await admin('/tenants/ten_nope'), 404, 'not_found');
    expectError(
      await post('/tenants/ten_nope/members', { name: 'A', email: 'a@b.co', role: 'Owner' }),
      404,
      'not_found',
    );
    expectError(await post('/tenants/ten_nope/roles', { name: 'R', permissions: {} }), 404, 'not_found');
    expectError(await post('/tenants/ten_nope/tokens', { role: 'Owner' }), 404, 'not_found');
    expectError(await admin('/tenants/ten_nope/tokens'), 404, 'not_found');
    expectError(await post('/tenants/ten_nope/tokens/tok_x/revoke', {}), 404, 'not_found');
  });
});

describe('POST /tenants/:tenantId/members', () => {
  it('creates a member and never returns the password hash', async () => {
    const tenantId = await createTenant('Members Co');
    const reply = await post(`/tenants/${tenantId}/members`, {
      name: 'Mia',
      email: 'Mia@Example.com',
      role: 'Manager',
      password: 'a long password',
    });
    expect(reply.status).toBe(201);
    expect(reply.body.member).toMatchObject({
      name: 'Mia',
      email: 'mia@example.com',
      role: 'Manager',
      canLogIn: true,
    });
    expect(JSON.stringify(reply.body)).not.toMatch(/scrypt|passwordHash|a long password/);
  });

  it('refuses a duplicate email, an unknown role, bad fields', async () => {
    const tenantId = await createTenant('Members Errors Co');
    const path = `/tenants/${tenantId}/members`;
    expect((await post(path, { name: 'A', email: 'a@example.com', role: 'Staff' })).status).toBe(201);
    expectError(await post(path, { name: 'B', email: 'A@example.com', role: 'Staff' }), 400, 'field_invalid');
    expectError(await post(path, { name: 'C', email: 'c@example.com', role: 'Pilot' }), 404, 'not_found');
    expectError(await post(path, { name: 'D', email: 'not-an-email', role: 'Staff' }), 400, 'field_invalid');
    expectError(
      await post(path, { name: 'E', email: 'e@example.com', role: 'Staff', password: 'short' }),
      400,
      'field_invalid',
    );
    expectError(
      await post(path, { name: 'F', email: 'f@example.com', role: 'Staff', admin: true }),
      400,
      'unknown_field',
    );
    expectError(await post(path, { email: 'g@example.com', role: 'Staff' }), 400, 'field_required');
  });
});

describe('POST /tenants/:tenantId/roles', () => {
  it('creates a custom role with normalised permissions', async () => {
    const tenantId = await createTenant('Roles Co');
    const reply = await post(`/tenants/${tenantId}/roles`, {
      name: 'Estimator',
      permissions: { deal: ['update', 'read', 'read'], customer: ['read'] },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.role).toMatchObject({
      name: 'Estimator',
      builtIn: false,
      permissions: { customer: ['read'], deal: ['read', 'update'] },
    });
    const list = await admin(`/tenants/${tenantId}/roles`);
    expect((list.body.items as { name: string }[]).map((r) => r.name)).toEqual([
      'Owner',
      'Manager',
      'Staff',
      'Viewer',
      'Estimator',
    ]);
  });

  it('refuses a built-in name, a duplicate, an unknown kind or verb', async () => {
    const tenantId = await createTenant('Roles Errors Co');
    const path = `/tenants/${tenantId}/roles`;
    expectError(await post(path, { name: 'manager', permissions: { lead: ['read'] } }), 400, 'field_invalid');
    expect((await post(path, { name: 'Pilot', permissions: { capture: ['read'] } })).status).toBe(201);
    expectError(await post(path, { name: 'pilot', permissions: {} }), 400, 'field_invalid');
    const kind = await post(path, { name: 'K', permissions: { invoices: ['read'] } });
    expectError(kind, 400, 'field_invalid');
    expect(kind.body).toMatchObject({ field: 'permissions.invoices' });
    expect(kind.body.error).toMatch(/kinds are deliverable, lead/);
    const verb = await post(path, { name: 'V', permissions: { lead: ['delete'] } });
    expectError(verb, 400, 'field_invalid_enum');
    expect(verb.body).toMatchObject({ allowed: ['read', 'create', 'update'] });
    expectError(await post(path, { name: 'P' }), 400, 'field_required');
  });
});

describe('tokens', () => {
  let tenantId: string;
  beforeAll(async () => {
    tenantId = await createTenant('Tokens Co');
  });

  it('issues a token whose secret is shown once and authenticates', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const reply = await post(`/tenants/${tenantId}/tokens`, {
      role: 'Staff',
      name: 'Field agent',
      permissions: { lead: ['read', 'create'] },
      projectIds: ['prj_1', 'prj_1', 'prj_2'],
      expiresAt,
    });
    expect(reply.status).toBe(201);
    const token = reply.body.token as Record<string, unknown>;
    expect(token).toMatchObject({
      role: 'Staff',
      name: 'Field agent',
      permissions: { lead: ['read', 'create'] },
      projectIds: ['prj_1', 'prj_2'],
      memberId: null,
      expiresAt,
      status: 'active',
    });
    expect(token.secret).toMatch(/^fop_[0-9A-Za-z]{40}$/);
    expect(token).not.toHaveProperty('secretHash');
    const caller = await authenticateBearer(fx.identity, `Bearer ${String(token.secret)}`);
    expect(caller).toMatchObject({ tokenId: token.id, projectIds: ['prj_1', 'prj_2'] });

    const list = await admin(`/tenants/${tenantId}/tokens`);
    expect(list.status).toBe(200);
    const listed = (list.body.items as Record<string, unknown>[]).find((item) => item.id === token.id);
    expect(listed).toMatchObject({ display: token.display, status: 'active' });
    expect(JSON.stringify(list.body)).not.toContain(String(token.secret).slice(4));
    expect(listed).not.toHaveProperty('secret');
    expect(listed).not.toHaveProperty('secretHash');
  });

  it('binds a token to a member of the tenant', async () => {
    const member = await post(`/tenants/${tenantId}/members`, {
      name: 'Bo',
      email: 'bo@example.com',
      role: 'Manager',
    });
    const memberId = (member.body.member as { id: string }).id;
    const reply = await post(`/tenants/${tenantId}/tokens`, { role: 'Manager', memberId });
    expect(reply.status).toBe(201);
    expect(reply.body.token).toMatchObject({ memberId });
  });

  it('refuses what a token may not be', async () => {
    const path = `/tenants/${tenantId}/tokens`;
    const wide = await post(path, { role: 'Viewer', permissions: { lead: ['read', 'update'] } });
    expectError(wide, 400, 'field_invalid');
    expect(wide.body).toMatchObject({ field: 'permissions', kind: 'lead', action: 'update' });
    expect(wide.body.error).toContain('update on lead');
    expectError(await post(path, { role: 'Pilot' }), 404, 'not_found');
    expectError(await post(path, { role: 'Viewer', memberId: 'mem_nobody' }), 404, 'not_found');
    expectError(
      await post(path, { role: 'Viewer', expiresAt: '2001-01-01T00:00:00Z' }),
      400,
      'field_invalid',
    );
    expectError(await post(path, { role: 'Viewer', expiresAt: 'tomorrow' }), 400, 'field_invalid');
    expectError(await post(path, { role: 'Viewer', projectIds: [] }), 400, 'field_invalid');
    expectError(await post(path, { role: 'Viewer', scopes: ['all'] }), 400, 'unknown_field');
    expectError(await post(path, {}), 400, 'field_required');
  });

  it('revokes a token with immediate effect, once', async () => {
    const issued = await post(`/tenants/${tenantId}/tokens`, { role: 'Manager' });
    const { id, secret } = issued.body.token as { id: string; secret: string };
    await authenticateBearer(fx.identity, `Bearer ${secret}`);
    const reply = await post(`/tenants/${tenantId}/tokens/${id}/revoke`, {});
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ ok: true, token: { id, status: 'revoked', revokedBy: 'operator' } });
    await expect(authenticateBearer(fx.identity, `Bearer ${secret}`)).rejects.toMatchObject({
      code: 'revoked',
    });
    const again = await admin(`/tenants/${tenantId}/tokens/${id}/revoke`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect((again.body.token as { revokedAt: string }).revokedAt).toBe(
      (reply.body.token as { revokedAt: string }).revokedAt,
    );
    expectError(await post(`/tenants/${tenantId}/tokens/tok_nope/revoke`, {}), 404, 'not_found');
    expectError(
      await post(`/tenants/${tenantId}/tokens/${id}/revoke`, { reason: 'x' }),
      400,
      'unknown_field',
    );
  });
});

describe('audit events', () => {
  it('commits an outbox event for every admin write, attributed to the operator', async () => {
    const platformBefore = (await outboxEvents(fx.store, [PLATFORM_TENANT])).length;
    const tenantId = await createTenant('Audited Co');
    await post(`/tenants/${tenantId}/roles`, { name: 'Clerk', permissions: { lead: ['read'] } });
    await post(`/tenants/${tenantId}/members`, { name: 'Al', email: 'al@example.com', role: 'Clerk' });
    const issued = await post(`/tenants/${tenantId}/tokens`, { role: 'Clerk' });
    await post(`/tenants/${tenantId}/tokens/${(issued.body.token as { id: string }).id}/revoke`, {});
    await post('/tenants', { name: '' }); // refused: no event
    const events = [
      ...(await outboxEvents(fx.store, [PLATFORM_TENANT])).slice(platformBefore),
      ...(await outboxEvents(fx.store, [tenantId])),
    ];
    expect(events.map((e) => e.type)).toEqual([
      'tenant.created',
      'role.created',
      'member.created',
      'token.issued',
      'token.revoked',
    ]);
    for (const event of events) expect(event.context.principal.kind).toBe('operator');
  });
});
