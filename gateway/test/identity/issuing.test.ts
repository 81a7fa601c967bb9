// The identity stores: issuing limits, custom roles, members, revocation, and the outbox event
// every identity write commits with it.
import { AppError } from '@fieldops/kit';
import type { Actor } from '../../src/identity/actor.ts';
import type { Tenant } from '../../src/identity/model.ts';
import { OPERATOR, PLATFORM_TENANT, newTenant, openFixture, outboxEvents, type Fixture } from './helpers.ts';

let fx: Fixture;
let tenant: Tenant;

beforeAll(async () => {
  fx = await openFixture();
  tenant = await newTenant(fx.identity, 'Issuing Co');
});
afterAll(() => fx.close());

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw err;
  return err;
}

describe('issuing tokens', () => {
  it('returns the secret once and stores only its hash and a redacted copy', async () => {
    const { token, secret } = await fx.identity.tokens.issue(
      tenant,
      { role: 'Manager', name: 'CI' },
      OPERATOR,
    );
    expect(secret).toMatch(/^fop_[0-9A-Za-z]{40}$/);
    expect(token.display).toBe(`fop_${secret.slice(4, 8)}…${secret.slice(-4)}`);
    const stored = await fx.store.get('tokens', tenant.id, token.id);
    expect(JSON.stringify(stored)).not.toContain(secret.slice(4));
    expect(stored).toMatchObject({ role: 'Manager', name: 'CI', createdBy: 'operator' });
  });

  it('refuses a role that does not exist', async () => {
    const err = await failure(fx.identity.tokens.issue(tenant, { role: 'Pilot' }, OPERATOR));
    expect(err.code).toBe('not_found');
    expect(err.extras).toMatchObject({ field: 'role' });
  });

  it('refuses narrowing beyond the role, naming the kind and verb', async () => {
    const err = await failure(
      fx.identity.tokens.issue(
        tenant,
        { role: 'Staff', permissions: { lead: ['read'], settings: ['read'] } },
        OPERATOR,
      ),
    );
    expect(err.code).toBe('field_invalid');
    expect(err.message).toContain('read on settings');
    expect(err.message).toContain('Staff');
    expect(err.extras).toMatchObject({ field: 'permissions', kind: 'settings', action: 'read' });
    const viewer = await failure(
      fx.identity.tokens.issue(
        tenant,
        { role: 'Viewer', permissions: { deal: ['read', 'update'] } },
        OPERATOR,
      ),
    );
    expect(viewer.message).toContain('update on deal');
  });

  it('accepts narrowing within the role and normalises it', async () => {
    const { token } = await fx.identity.tokens.issue(
      tenant,
      { role: 'Staff', permissions: { lead: ['update', 'read'] } },
      OPERATOR,
    );
    expect(token.permissions).toEqual({ lead: ['read', 'update'] });
  });

  it('refuses a member of another tenant or no member as not_found', async () => {
    const other = await newTenant(fx.identity, 'Other Co');
    const stranger = await fx.identity.members.create(
      other,
      { name: 'Stranger', email: 'stranger@example.com', role: 'Owner' },
      OPERATOR,
    );
    for (const memberId of [stranger.id, 'mem_missing']) {
      const err = await failure(fx.identity.tokens.issue(tenant, { role: 'Viewer', memberId }, OPERATOR));
      expect(err.code).toBe('not_found');
      expect(err.extras).toMatchObject({ field: 'memberId' });
    }
  });

  it("refuses a token whose role grants more than its member's role", async () => {
    const staff = await fx.identity.members.create(
      tenant,
      { name: 'Staffer', email: 'staffer@example.com', role: 'Staff' },
      OPERATOR,
    );
    const err = await failure(
      fx.identity.tokens.issue(tenant, { role: 'Manager', memberId: staff.id }, OPERATOR),
    );
    expect(err.code).toBe('field_invalid');
    expect(err.message).toContain('on settings');
    expect(err.extras).toMatchObject({ field: 'role' });
    // Viewer reads settings, which Staff does not: built-in roles are not a ladder.
    const viewer = await failure(
      fx.identity.tokens.issue(tenant, { role: 'Viewer', memberId: staff.id }, OPERATOR),
    );
    expect(viewer.message).toContain('read on settings');
    const ok = await fx.identity.tokens.issue(
      tenant,
      { role: 'Staff', memberId: staff.id, permissions: { lead: ['read'] } },
      OPERATOR,
    );
    expect(ok.token.memberId).toBe(staff.id);
  });

  it('refuses an expiry in the past', async () => {
    const err = await failure(
      fx.identity.tokens.issue(tenant, { role: 'Viewer', expiresAt: '2020-01-01T00:00:00.000Z' }, OPERATOR),
    );
    expect(err).toMatchObject({ code: 'field_invalid', extras: { field: 'expiresAt' } });
  });

  it('refuses, for a portal issuer, a role beyond their own (role_denied with required)', async () => {
    const ceiling = { name: 'Clerk', permissions: { lead: ['read' as const, 'create' as const] } };
    const err = await failure(fx.identity.tokens.issue(tenant, { role: 'Viewer' }, OPERATOR, { ceiling }));
    expect(err.code).toBe('role_denied');
    expect(err.message).toContain('Your role Clerk does not grant read on deliverable');
    expect(err.extras).toMatchObject({ field: 'role', required: { kind: 'deliverable', action: 'read' } });
  });
});

describe('custom roles', () => {
  it('are created per tenant and can back a token', async () => {
    const role = await fx.identity.roles.create(
      tenant,
      { name: 'Estimator', permissions: { deal: ['update', 'read'], customer: ['read'] } },
      OPERATOR,
    );
    expect(role).toMatchObject({
      name: 'Estimator',
      builtIn: false,
      permissions: { customer: ['read'], deal: ['read', 'update'] },
    });
    const { token } = await fx.identity.tokens.issue(tenant, { role: 'estimator' }, OPERATOR);
    expect(token.role).toBe('Estimator');
    const other = await newTenant(fx.identity, 'No Estimators Co');
    expect((await failure(fx.identity.tokens.issue(other, { role: 'Estimator' }, OPERATOR))).code).toBe(
      'not_found',
    );
  });

  it('cannot shadow a built-in role name, in any case', async () => {
    for (const name of ['Manager', 'viewer', 'OWNER']) {
      const err = await failure(
        fx.identity.roles.create(tenant, { name, permissions: { lead: ['read'] } }, OPERATOR),
      );
      expect(err).toMatchObject({ code: 'field_invalid', extras: { field: 'name' } });
    }
  });

  it('a built-in role, shared by every caller, cannot be changed by one of them', async () => {
    const role = await fx.identity.roles.find(tenant.id, 'Viewer');
    const before = JSON.stringify(role?.permissions);
    expect(() => role?.permissions.lead?.push('update')).toThrow(TypeError);
    expect(() => Object.assign(role?.permissions ?? {}, { lead: [] })).toThrow(TypeError);
    expect(JSON.stringify((await fx.identity.roles.find(tenant.id, 'viewer'))?.permissions)).toBe(before);
  });

  it('have names unique per tenant, regardless of case', async () => {
    await fx.identity.roles.create(tenant, { name: 'Pilot', permissions: { capture: ['read'] } }, OPERATOR);
    const err = await failure(fx.identity.roles.create(tenant, { name: 'PILOT', permissions: {} }, OPERATOR));
    expect(err).toMatchObject({ code: 'field_invalid', extras: { field: 'name' } });
  });
});

describe('members', () => {
  it('have emails unique per tenant (case-insensitive) and never expose the hash through views', async () => {
    const member = await fx.identity.members.create(
      tenant,
      { name: 'Ada', email: 'Ada@Example.com', role: 'Owner', password: 'a long password' },
      OPERATOR,
    );
    expect(member.email).toBe('ada@example.com');
    expect(member.passwordHash).toMatch(/^\$argon2id\$/);
    const err = await failure(
      fx.identity.members.create(
        tenant,
        { name: 'Ada 2', email: 'ADA@example.com', role: 'Owner' },
        OPERATOR,
      ),
    );
    expect(err).toMatchObject({ code: 'field_invalid', extras: { field: 'email' } });
  });

  it('need a role that exists', async () => {
    const err = await failure(
      fx.identity.members.create(tenant, { name: 'Bo', email: 'bo@example.com', role: 'Nope' }, OPERATOR),
    );
    expect(err).toMatchObject({ code: 'not_found', extras: { field: 'role' } });
  });
});

describe('revoking', () => {
  it('stamps revokedAt and revokedBy once; revoking again changes nothing', async () => {
    const { token } = await fx.identity.tokens.issue(tenant, { role: 'Viewer' }, OPERATOR);
    const revoked = await fx.identity.tokens.revoke(tenant, token.id, OPERATOR);
    expect(revoked).toMatchObject({ revokedBy: 'operator' });
    expect(revoked.revokedAt).toBeDefined();
    const again = await fx.identity.tokens.revoke(tenant, token.id, OPERATOR);
    expect(again.revokedAt).toBe(revoked.revokedAt);
    expect(await fx.store.get('tokens', tenant.id, token.id)).not.toBeNull();
  });

  it('answers not_found for a token of another tenant', async () => {
    const other = await newTenant(fx.identity, 'Other Revoke Co');
    const { token } = await fx.identity.tokens.issue(other, { role: 'Viewer' }, OPERATOR);
    expect((await failure(fx.identity.tokens.revoke(tenant, token.id, OPERATOR))).code).toBe('not_found');
  });
});

describe('outbox events', () => {
  it('commit one event per identity write, with the actor and no secret', async () => {
    const fresh = await openFixture();
    try {
      const { identity, store } = fresh;
      const t = await identity.tenants.create({ name: 'Evented', currency: 'EUR' }, OPERATOR);
      const role = await identity.roles.create(
        t,
        { name: 'Clerk', permissions: { lead: ['read'] } },
        OPERATOR,
      );
      const member = await identity.members.create(
        t,
        { name: 'Cy', email: 'cy@example.com', role: 'Clerk', password: 'a long password' },
        OPERATOR,
      );
      const { token, secret } = await identity.tokens.issue(
        t,
        { role: 'Clerk', memberId: member.id },
        OPERATOR,
      );
      const portal: Actor = {
        kind: 'session',
        requestId: 'req_portal',
        caller: {
          kind: 'session',
          tenant: t,
          tokenId: 'ses_1',
          sessionId: 'ses_1',
          role: { name: 'Clerk', permissions: role.permissions },
          member,
          narrowing: null,
          effective: role.permissions,
          projectIds: null,
          expiresAt: null,
        },
      };
      await identity.tokens.revoke(t, token.id, portal);

      const events = await outboxEvents(store, [PLATFORM_TENANT, t.id]);
      expect(events.map((e) => [e.type, e.tenantId, e.resource.kind])).toEqual([
        ['tenant.created', '_platform', 'tenant'],
        ['role.created', t.id, 'role'],
        ['member.created', t.id, 'member'],
        ['token.issued', t.id, 'token'],
        ['token.revoked', t.id, 'token'],
      ]);
      expect(events[0]?.data).toMatchObject({ id: t.id, name: 'Evented', currency: 'EUR' });
      expect(events[3]?.resource.id).toBe(token.id);
      expect(events[3]?.context.principal).toMatchObject({ kind: 'operator' });
      expect(events[4]?.context).toMatchObject({
        requestId: 'req_portal',
        principal: { kind: 'session', tokenId: 'ses_1', role: 'Clerk', memberId: member.id },
      });
      const raw = JSON.stringify(events);
      expect(raw).not.toContain(secret.slice(4));
      expect(raw).not.toContain(token.secretHash);
      expect(raw).not.toContain('scrypt$');
    } finally {
      await fresh.close();
    }
  });
});
