import { AppError } from '@fieldops/kit';
import { authenticateBearer, authenticateSession, wwwAuthenticate } from '../../src/identity/authenticate.ts';
import type { Tenant } from '../../src/identity/model.ts';
import { LAST_USED_GRANULARITY_MS } from '../../src/identity/token-lookup.ts';
import { OPERATOR, newTenant, openFixture, type Fixture } from './helpers.ts';

let fx: Fixture;
let tenant: Tenant;

beforeAll(async () => {
  fx = await openFixture();
  tenant = await newTenant(fx.identity);
});
afterAll(() => fx.close());

/** The AppError a promise rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw err;
  return err;
}

const bearer = (secret: string) => `Bearer ${secret}`;

/** Changes stored fields of a document directly, as time or another writer would. */
async function patchDoc(collection: string, tenantId: string, id: string, fields: Record<string, unknown>) {
  const doc = await fx.store.get(collection, tenantId, id);
  if (!doc) throw new Error(`no ${collection} ${id}`);
  await fx.store.commit(tenantId, [
    { op: 'replace', collection, doc: { ...doc, ...fields }, expectedVersion: doc.version },
  ]);
}
const patchToken = (tenantId: string, id: string, fields: Record<string, unknown>) =>
  patchDoc('tokens', tenantId, id, fields);

describe('authenticateBearer', () => {
  it('answers no_credential when the header is absent or empty', async () => {
    for (const header of [undefined, '', '   ']) {
      const err = await failure(authenticateBearer(fx.identity, header));
      expect(err.code).toBe('no_credential');
      expect(err.http).toBe(401);
      expect(err.message).toMatch(/Authorization: Bearer/);
      expect(wwwAuthenticate(err)).toBe('Bearer realm="fieldops"');
    }
  });

  it('answers invalid_token for another scheme, a malformed or an unknown secret', async () => {
    const unknown = `fop_${'A'.repeat(40)}`;
    for (const header of [
      'Basic dXNlcjpwYXNz',
      'Bearer',
      'Bearer a b',
      'Bearer not-a-token',
      bearer(unknown),
    ]) {
      const err = await failure(authenticateBearer(fx.identity, header));
      expect(err.code).toBe('invalid_token');
      expect(err.message).toMatch(/obtain a new token/);
      expect(wwwAuthenticate(err)).toMatch(
        /^Bearer realm="fieldops", error="invalid_token", error_description="/,
      );
    }
  });

  it('returns the caller of a live token, with the scheme in any case', async () => {
    const { token, secret } = await fx.identity.tokens.issue(tenant, { role: 'Staff' }, OPERATOR);
    const caller = await authenticateBearer(fx.identity, `bearer  ${secret}`);
    expect(caller).toMatchObject({
      kind: 'token',
      tenant: { id: tenant.id, currency: 'USD', defaultVertical: 'survey' },
      tokenId: token.id,
      role: { name: 'Staff' },
      member: null,
      narrowing: null,
      projectIds: null,
      expiresAt: null,
    });
    expect(caller.effective.settings).toBeUndefined();
    expect(caller.effective.lead).toEqual(['read', 'create', 'update']);
  });

  it('answers revoked on the very next call after a revoke', async () => {
    const { token, secret } = await fx.identity.tokens.issue(tenant, { role: 'Manager' }, OPERATOR);
    await expect(authenticateBearer(fx.identity, bearer(secret))).resolves.toMatchObject({
      tokenId: token.id,
    });
    await fx.identity.tokens.revoke(tenant, token.id, OPERATOR);
    const err = await failure(authenticateBearer(fx.identity, bearer(secret)));
    expect(err.code).toBe('revoked');
    expect(err.message).toMatch(/revoked at .*obtain a new token/);
    expect(wwwAuthenticate(err)).toMatch(/error="invalid_token"/);
  });

  it('answers expired once expiresAt has passed', async () => {
    const later = new Date(Date.now() + 60_000).toISOString();
    const { token, secret } = await fx.identity.tokens.issue(
      tenant,
      { role: 'Viewer', expiresAt: later },
      OPERATOR,
    );
    await expect(authenticateBearer(fx.identity, bearer(secret))).resolves.toMatchObject({
      expiresAt: later,
    });
    // Let the minute pass: move the stored expiry into the past.
    const past = new Date(Date.now() - 1000).toISOString();
    await patchToken(tenant.id, token.id, { expiresAt: past });
    const err = await failure(authenticateBearer(fx.identity, bearer(secret)));
    expect(err.code).toBe('expired');
    expect(err.message).toContain(`expired at ${past}`);
    expect(err.message).toMatch(/obtain a new token/);
  });

  it('carries narrowing, project restriction and the bound member', async () => {
    const member = await fx.identity.members.create(
      tenant,
      { name: 'Pat', email: 'pat@example.com', role: 'Staff', password: 'long enough secret' },
      OPERATOR,
    );
    const { secret } = await fx.identity.tokens.issue(
      tenant,
      {
        role: 'Staff',
        permissions: { lead: ['read', 'update'] },
        projectIds: ['prj_1'],
        memberId: member.id,
      },
      OPERATOR,
    );
    const caller = await authenticateBearer(fx.identity, bearer(secret));
    expect(caller.member).toMatchObject({ id: member.id, email: 'pat@example.com' });
    expect(caller.member).not.toHaveProperty('passwordHash');
    expect(caller.narrowing).toEqual({ lead: ['read', 'update'] });
    expect(caller.effective).toEqual({ lead: ['read', 'update'] });
    expect(caller.projectIds).toEqual(['prj_1']);
  });

  it('answers invalid_token when the token tenant no longer resolves', async () => {
    const { token, secret } = await fx.identity.tokens.issue(tenant, { role: 'Viewer' }, OPERATOR);
    // Move the token under a tenant id that has no tenant record, as a deleted tenant would leave it.
    await fx.store.commit('ten_ghost', [
      { op: 'insert', collection: 'tokens', doc: { ...token, tenantId: 'ten_ghost', version: 1 } },
    ]);
    await patchDoc('token_secrets', '_platform', `tks_${token.secretHash}`, { tokenTenantId: 'ten_ghost' });
    const err = await failure(authenticateBearer(fx.identity, bearer(secret)));
    expect(err.code).toBe('invalid_token');
    expect(err.message).toMatch(/tenant no longer exists/);
  });

  it("never lets a member-bound token do more than the member's current role", async () => {
    const member = await fx.identity.members.create(
      tenant,
      { name: 'Lee', email: 'lee@example.com', role: 'Manager' },
      OPERATOR,
    );
    const { secret } = await fx.identity.tokens.issue(
      tenant,
      { role: 'Manager', memberId: member.id },
      OPERATOR,
    );
    expect((await authenticateBearer(fx.identity, bearer(secret))).effective.settings).toEqual([
      'read',
      'create',
      'update',
    ]);
    await patchDoc('members', tenant.id, member.id, { role: 'Viewer' });
    const caller = await authenticateBearer(fx.identity, bearer(secret));
    expect(caller.role.name).toBe('Manager');
    expect(caller.effective.settings).toEqual(['read']);
    expect(caller.effective.lead).toEqual(['read']);
  });

  it('records lastUsedAt at most once per interval, not on every request', async () => {
    const { token, secret } = await fx.identity.tokens.issue(tenant, { role: 'Viewer' }, OPERATOR);
    await authenticateBearer(fx.identity, bearer(secret));
    const first = await fx.identity.tokens.get(tenant.id, token.id);
    expect(first?.lastUsedAt).toBeDefined();
    const versionAfterFirst = (await fx.store.get('tokens', tenant.id, token.id))?.version;
    for (let i = 0; i < 5; i++) await authenticateBearer(fx.identity, bearer(secret));
    expect((await fx.store.get('tokens', tenant.id, token.id))?.version).toBe(versionAfterFirst);
    expect(LAST_USED_GRANULARITY_MS).toBeGreaterThanOrEqual(60_000);
  });
});

describe('authenticateSession', () => {
  it('answers no_session without a cookie or with an unknown one', async () => {
    for (const cookie of [undefined, '', 'garbage', 'A'.repeat(43)]) {
      const err = await failure(authenticateSession(fx.identity, cookie));
      expect(err.code).toBe('no_session');
      expect(err.http).toBe(401);
    }
  });

  it('returns the member caller of a live session, and no_session after it is deleted', async () => {
    const member = await fx.identity.members.create(
      tenant,
      { name: 'Sam', email: 'sam@example.com', role: 'Viewer', password: 'long enough secret' },
      OPERATOR,
    );
    const { secret, session } = await fx.identity.sessions.create(member);
    const caller = await authenticateSession(fx.identity, secret);
    expect(caller).toMatchObject({
      kind: 'session',
      tokenId: session.id,
      sessionId: session.id,
      role: { name: 'Viewer' },
      member: { id: member.id },
      narrowing: null,
      projectIds: null,
    });
    expect(caller.member).not.toHaveProperty('passwordHash');
    await fx.identity.sessions.delete(secret);
    expect((await failure(authenticateSession(fx.identity, secret))).code).toBe('no_session');
  });

  it('ends a session after its lifetime', async () => {
    const member = await fx.identity.members.create(
      tenant,
      { name: 'Old', email: 'old@example.com', role: 'Viewer' },
      OPERATOR,
    );
    const { secret } = await fx.identity.sessions.create(member, Date.now() - 13 * 60 * 60_000);
    expect((await failure(authenticateSession(fx.identity, secret))).code).toBe('no_session');
  });
});
