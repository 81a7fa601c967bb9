// The portal's identity calls over real HTTP: sessions only, cookie login/logout, and tokens
// issued from the browser that never exceed the member's role.
import { request } from 'node:http';
import { authenticateBearer } from '../../src/identity/authenticate.ts';
import type { Tenant } from '../../src/identity/model.ts';
import { createPortalRouter } from '../../src/portal/portal.router.ts';
import { createEmbeddedFastState } from '@fieldops/kit/fast';
import { OPERATOR, call, newTenant, openFixture, outboxEvents, serve } from '../identity/helpers.ts';
import type { CallOptions, Fixture, Reply, TestServer } from '../identity/helpers.ts';

const PASSWORD = 'a long enough password';

let fx: Fixture;
let server: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  fx = await openFixture();
  server = await serve('/api/portal', createPortalRouter(fx.identity, { fast: createEmbeddedFastState() }));
  tenant = await newTenant(fx.identity, 'Portal Co');
});
afterAll(async () => {
  await server.close();
  await fx.close();
});

let memberCount = 0;
async function member(role: string) {
  const email = `member${++memberCount}@example.com`;
  const created = await fx.identity.members.create(
    tenant,
    { name: `M${memberCount}`, email, role, password: PASSWORD },
    OPERATOR,
  );
  return { ...created, email };
}

const portal = (path: string, options: CallOptions = {}) => call(`${server.url}${path}`, options);

async function login(email: string, password = PASSWORD, tenantId = tenant.id): Promise<Reply> {
  return portal('/login', { method: 'POST', json: { tenantId, email, password } });
}

/** Logs in and returns the Cookie header value to send back. */
async function sessionCookie(email: string): Promise<string> {
  const reply = await login(email);
  expect(reply.status).toBe(200);
  const cookie = reply.headers.getSetCookie()[0];
  if (!cookie) throw new Error('no Set-Cookie');
  return cookie.split(';')[0] ?? '';
}

const as = (cookie: string, options: CallOptions = {}): CallOptions => ({
  ...options,
  headers: { cookie, ...options.headers },
});
const postAs = (cookie: string, path: string, json: unknown = {}) =>
  portal(path, as(cookie, { method: 'POST', json }));

const expectError = (reply: Reply, status: number, code: string) => {
  expect({ status: reply.status, ok: reply.body.ok, code: reply.body.code }).toEqual({
    status,
    ok: false,
    code,
  });
  expect(typeof reply.body.error).toBe('string');
};

describe('sessions only', () => {
  it('refuses a bearer token on every portal path with 401 no_session, before anything else', async () => {
    const { secret } = await fx.identity.tokens.issue(tenant, { role: 'Manager' }, OPERATOR);
    const staff = await member('Staff');
    const cookie = await sessionCookie(staff.email);
    const authorization = `Bearer ${secret}`;
    for (const [method, path] of [
      ['GET', '/session'],
      ['GET', '/tokens'],
      ['POST', '/tokens'],
      ['POST', '/login'],
      ['POST', '/logout'],
      ['POST', '/tokens/tok_x/revoke'],
      ['GET', '/anything'],
    ] as const) {
      const reply = await portal(
        path,
        as(cookie, { method, headers: { authorization }, ...(method === 'POST' ? { json: {} } : {}) }),
      );
      expectError(reply, 401, 'no_session');
      expect(reply.body.error).toMatch(/browser session only/);
    }
  });

  it('answers 401 no_session without a session', async () => {
    expectError(await portal('/session'), 401, 'no_session');
    expectError(await portal('/tokens'), 401, 'no_session');
    expectError(await portal('/tokens', { method: 'POST', json: { role: 'Staff' } }), 401, 'no_session');
    expectError(
      await portal('/session', { headers: { cookie: 'fieldops_session=forged' } }),
      401,
      'no_session',
    );
  });
});

describe('login and logout', () => {
  it('sets an HttpOnly, SameSite=Strict cookie on the portal path and returns the member', async () => {
    const manager = await member('Manager');
    const reply = await login(manager.email.toUpperCase());
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      ok: true,
      member: { id: manager.id, role: 'Manager' },
      tenant: { id: tenant.id },
    });
    expect(JSON.stringify(reply.body)).not.toMatch(/scrypt|passwordHash/);
    const cookie = reply.headers.getSetCookie()[0] ?? '';
    expect(cookie).toMatch(/^fieldops_session=[\w-]{43};/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/api\/portal/);
    expect(cookie).toMatch(/; Max-Age=43200/);
    expect(cookie).not.toMatch(/Secure/); // plain http on localhost

    const session = await portal('/session', as(cookie.split(';')[0] ?? ''));
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({
      ok: true,
      member: { id: manager.id, email: manager.email },
      tenant: { id: tenant.id, name: 'Portal Co' },
      role: { name: 'Manager', permissions: { settings: ['read', 'create', 'update'] } },
    });
  });

  it('marks the cookie Secure when the portal is not reached over plain http on localhost', async () => {
    const staff = await member('Staff');
    const { port, pathname } = new URL(`${server.url}/login`);
    const body = JSON.stringify({ tenantId: tenant.id, email: staff.email, password: PASSWORD });
    const setCookie = await new Promise<string[]>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: pathname,
          method: 'POST',
          headers: { host: 'portal.example.com', 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.headers['set-cookie'] ?? []);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(setCookie[0]).toMatch(/; Secure/);
  });

  it('answers the same 401 no_session for a wrong password, email or tenant', async () => {
    const staff = await member('Staff');
    const replies = [
      await login(staff.email, 'the wrong password'),
      await login('nobody@example.com'),
      await login(staff.email, PASSWORD, 'ten_nope'),
    ];
    for (const reply of replies) {
      expectError(reply, 401, 'no_session');
      expect(reply.headers.getSetCookie()).toEqual([]);
    }
    expect(new Set(replies.map((r) => r.body.error)).size).toBe(1);
  });

  it('refuses a member without a password', async () => {
    const noPassword = await fx.identity.members.create(
      tenant,
      { name: 'NP', email: 'np@example.com', role: 'Staff' },
      OPERATOR,
    );
    expectError(await login(noPassword.email, 'any password at all'), 401, 'no_session');
  });

  it('validates the login body', async () => {
    expectError(
      await portal('/login', { method: 'POST', json: { email: 'x@example.com', password: 'p' } }),
      400,
      'field_required',
    );
    expectError(
      await portal('/login', {
        method: 'POST',
        json: { tenantId: 't', email: 'e', password: 'p', remember: true },
      }),
      400,
      'unknown_field',
    );
  });

  it('logs out: the cookie is cleared and the session ends on the server', async () => {
    const staff = await member('Staff');
    const cookie = await sessionCookie(staff.email);
    const reply = await postAs(cookie, '/logout');
    expect(reply.status).toBe(200);
    expect(reply.headers.getSetCookie()[0]).toMatch(/^fieldops_session=;.*Expires=Thu, 01 Jan 1970/);
    expectError(await portal('/session', as(cookie)), 401, 'no_session');
    expect((await postAs(cookie, '/logout')).status).toBe(200); // idempotent
  });
});

describe('cross-site request forgery', () => {
  it('refuses state-changing calls not sent as JSON', async () => {
    const staff = await member('Staff');
    const cookie = await sessionCookie(staff.email);
    const form = await portal('/tokens', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'role=Staff',
    });
    expectError(form, 400, 'invalid_body');
    const bare = await portal('/logout', { method: 'POST', headers: { cookie } });
    expectError(bare, 400, 'invalid_body');
    expect((await portal('/session', as(cookie))).status).toBe(200); // the session was not ended
  });

  it('refuses state-changing calls from another site', async () => {
    const staff = await member('Staff');
    const cookie = await sessionCookie(staff.email);
    const crossSite = await portal(
      '/tokens',
      as(cookie, {
        method: 'POST',
        json: { role: 'Staff' },
        headers: { cookie, 'sec-fetch-site': 'cross-site' },
      }),
    );
    expectError(crossSite, 401, 'no_session');
    const otherOrigin = await portal(
      '/tokens',
      as(cookie, {
        method: 'POST',
        json: { role: 'Staff' },
        headers: { cookie, origin: 'https://evil.example' },
      }),
    );
    expectError(otherOrigin, 401, 'no_session');
    const sameOrigin = await portal('/tokens', {
      method: 'POST',
      json: { role: 'Staff' },
      headers: { cookie, origin: new URL(server.url).origin, 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.status).toBe(201);
  });
});

describe('tokens from the portal', () => {
  it('issues a token bound to the member by default, within the member role', async () => {
    const staff = await member('Staff');
    const cookie = await sessionCookie(staff.email);
    const reply = await postAs(cookie, '/tokens', {
      role: 'Staff',
      permissions: { lead: ['read'] },
      name: 'my agent',
    });
    expect(reply.status).toBe(201);
    const token = reply.body.token as { id: string; secret: string; memberId: string; createdBy: string };
    expect(token).toMatchObject({ memberId: staff.id, createdBy: staff.id, role: 'Staff' });
    const caller = await authenticateBearer(fx.identity, `Bearer ${token.secret}`);
    expect(caller.member?.id).toBe(staff.id);
    expect(caller.effective).toEqual({ lead: ['read'] });
  });

  it('never issues a token beyond the member role', async () => {
    const staff = await member('Staff');
    const cookie = await sessionCookie(staff.email);
    for (const role of ['Manager', 'Owner', 'Viewer']) {
      const reply = await postAs(cookie, '/tokens', { role });
      expectError(reply, 403, 'role_denied');
      expect(reply.body).toMatchObject({ required: { kind: 'settings' } });
    }
    const viewer = await member('Viewer');
    const viewerCookie = await sessionCookie(viewer.email);
    const wider = await postAs(viewerCookie, '/tokens', { role: 'Staff' });
    expectError(wider, 403, 'role_denied');
    const narrowing = await postAs(viewerCookie, '/tokens', {
      role: 'Viewer',
      permissions: { lead: ['update'] },
    });
    expectError(narrowing, 400, 'field_invalid');
    expect((await postAs(viewerCookie, '/tokens', { role: 'Viewer' })).status).toBe(201);
  });

  it('lets only a member with settings update bind a token to someone else or to nobody', async () => {
    const staff = await member('Staff');
    const other = await member('Staff');
    const staffCookie = await sessionCookie(staff.email);
    const denied = await postAs(staffCookie, '/tokens', { role: 'Staff', memberId: other.id });
    expectError(denied, 403, 'role_denied');
    expect(denied.body).toMatchObject({ required: { action: 'update', kind: 'settings' } });
    expectError(await postAs(staffCookie, '/tokens', { role: 'Staff', memberId: null }), 403, 'role_denied');

    const manager = await member('Manager');
    const managerCookie = await sessionCookie(manager.email);
    const bound = await postAs(managerCookie, '/tokens', { role: 'Staff', memberId: other.id });
    expect(bound.status).toBe(201);
    expect(bound.body.token).toMatchObject({ memberId: other.id, createdBy: manager.id });
    const unbound = await postAs(managerCookie, '/tokens', { role: 'Manager', memberId: null });
    expect(unbound.body.token).toMatchObject({ memberId: null });
    // Bound to another member, the member's own role still caps the token.
    expectError(
      await postAs(managerCookie, '/tokens', { role: 'Manager', memberId: other.id }),
      400,
      'field_invalid',
    );
    expectError(
      await postAs(managerCookie, '/tokens', { role: 'Staff', memberId: 'mem_nobody' }),
      404,
      'not_found',
    );
  });

  it("lists a member's own tokens, or every token with settings update, never a secret", async () => {
    const staff = await member('Staff');
    const staffCookie = await sessionCookie(staff.email);
    const own = await postAs(staffCookie, '/tokens', { role: 'Staff' });
    const ownId = (own.body.token as { id: string }).id;
    const operatorToken = await fx.identity.tokens.issue(tenant, { role: 'Viewer' }, OPERATOR);

    const staffList = await portal('/tokens?limit=100', as(staffCookie));
    expect(staffList.status).toBe(200);
    const staffIds = (staffList.body.items as { id: string; memberId: string }[]).map((t) => t.id);
    expect(staffIds).toEqual([ownId]);

    const manager = await member('Manager');
    const managerList = await portal('/tokens?limit=100', as(await sessionCookie(manager.email)));
    const managerIds = (managerList.body.items as { id: string }[]).map((t) => t.id);
    expect(managerIds).toEqual(expect.arrayContaining([ownId, operatorToken.token.id]));
    expect(JSON.stringify(managerList.body)).not.toMatch(/secretHash|"secret"/);
  });

  it("revokes the member's own tokens; another's only with settings update", async () => {
    const staff = await member('Staff');
    const other = await member('Staff');
    const staffCookie = await sessionCookie(staff.email);
    const otherCookie = await sessionCookie(other.email);
    const mine = (await postAs(staffCookie, '/tokens', { role: 'Staff' })).body.token as {
      id: string;
      secret: string;
    };
    const theirs = (await postAs(otherCookie, '/tokens', { role: 'Staff' })).body.token as {
      id: string;
      secret: string;
    };

    const revoked = await postAs(staffCookie, `/tokens/${mine.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.token).toMatchObject({ id: mine.id, status: 'revoked', revokedBy: staff.id });
    await expect(authenticateBearer(fx.identity, `Bearer ${mine.secret}`)).rejects.toMatchObject({
      code: 'revoked',
    });

    const denied = await postAs(staffCookie, `/tokens/${theirs.id}/revoke`);
    expectError(denied, 403, 'role_denied');
    expect(denied.body).toMatchObject({ required: { action: 'update', kind: 'settings' } });
    await expect(authenticateBearer(fx.identity, `Bearer ${theirs.secret}`)).resolves.toBeDefined();

    const manager = await member('Manager');
    const byManager = await postAs(await sessionCookie(manager.email), `/tokens/${theirs.id}/revoke`);
    expect(byManager.body.token).toMatchObject({ status: 'revoked', revokedBy: manager.id });
    expectError(await postAs(staffCookie, '/tokens/tok_nope/revoke'), 404, 'not_found');
  });

  it('records portal writes in the outbox as the session member', async () => {
    const staff = await member('Staff');
    const cookie = await sessionCookie(staff.email);
    const before = (await outboxEvents(fx.store, [tenant.id])).length;
    const issued = await postAs(cookie, '/tokens', { role: 'Staff' });
    await postAs(cookie, `/tokens/${(issued.body.token as { id: string }).id}/revoke`);
    const events = (await outboxEvents(fx.store, [tenant.id])).slice(before);
    expect(events.map((e) => e.type)).toEqual(['token.issued', 'token.revoked']);
    for (const event of events) {
      expect(event.tenantId).toBe(tenant.id);
      expect(event.context.principal).toMatchObject({ kind: 'session', role: 'Staff', memberId: staff.id });
      expect(event.context.principal.tokenId).toMatch(/^ses_/);
    }
  });
});

describe('failed logins and repeated forms', () => {
  it('refuses an account after five failed logins with 429 and Retry-After, even with the right password', async () => {
    const locked = await member('Staff');
    for (let i = 0; i < 5; i++) expectError(await login(locked.email, 'wrong password'), 401, 'no_session');
    const refused = await login(locked.email);
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account from the same address still logs in: the address allowance is larger.
    const other = await member('Staff');
    expect((await login(other.email)).status).toBe(200);
  });

  it('issues one token per Idempotency-Key, however often the form is sent', async () => {
    const staff = await member('Staff');
    const cookie = await sessionCookie(staff.email);
    const send = () =>
      portal(
        '/tokens',
        as(cookie, { method: 'POST', json: { role: 'Staff' }, headers: { 'idempotency-key': 'form-1' } }),
      );
    const [first, second] = await Promise.all([send(), send()]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([201, 409]);
    expectError(await send(), 409, 'conflict');
    const listed = await portal('/tokens', as(cookie));
    expect((listed.body.items as unknown[]).length).toBe(1);
    const bad = await portal(
      '/tokens',
      as(cookie, { method: 'POST', json: { role: 'Staff' }, headers: { 'idempotency-key': 'no spaces' } }),
    );
    expectError(bad, 400, 'field_invalid');
    expect(bad.body.field).toBe('Idempotency-Key');
  });

  it('lets a form refused for bad input be corrected and sent again with the same key', async () => {
    const staff = await member('Staff');
    const cookie = await sessionCookie(staff.email);
    const send = (json: unknown) =>
      portal('/tokens', as(cookie, { method: 'POST', json, headers: { 'idempotency-key': 'form-2' } }));
    expectError(await send({ role: 'Nobody' }), 404, 'not_found');
    expect((await send({ role: 'Staff' })).status).toBe(201);
  });
});
