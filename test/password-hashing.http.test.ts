// Member passwords are hashed with Argon2id at OWASP's parameters, and a hash of an earlier version
// (scrypt at N=2^14) is replaced at the next successful login (docs/security.md, "Passwords").
// What the store holds is read from the gateway's embedded store between runs of the platform.
import { randomBytes, scryptSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { C, defineCollections } from '@fieldops/gateway/collections';
import { openEmbeddedStore } from '@fieldops/kit/store';
import { startTestPlatform, type TestPlatform } from './support/harness.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'fieldops-passwords-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const PASSWORD = 'correct horse battery';
const ARGON2ID_OWASP = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/;

type MemberDoc = { id: string; tenantId: string; version: number; passwordHash: string };

/** Reads (and, with `change`, rewrites) the member's stored hash while the platform is stopped. */
async function storedHash(tenantId: string, email: string, change?: string): Promise<string> {
  const store = await openEmbeddedStore({ dir: join(dataDir, 'gateway') });
  try {
    await defineCollections(store);
    const doc = (await store.findOne(C.members, tenantId, { email })) as MemberDoc | null;
    if (!doc) throw new Error(`no member ${email}`);
    if (change === undefined) return doc.passwordHash;
    const next = { ...doc, passwordHash: change, version: doc.version + 1 };
    await store.commit(tenantId, [
      { op: 'replace', collection: C.members, doc: next, expectedVersion: doc.version },
    ]);
    return change;
  } finally {
    await store.close();
  }
}

const login = (platform: TestPlatform, tenantId: string, email: string, password: string) =>
  fetch(`${platform.url}/api/portal/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tenantId, email, password }),
  });

/** An scrypt hash as versions before issue 32 stored it. */
function scryptHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 16384, r: 8, p: 1 });
  return ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe('member passwords', () => {
  it('are stored as Argon2id; an old scrypt hash logs in and is replaced at that login, not at a failed one', async () => {
    let platform = await startTestPlatform({}, dataDir);
    const { tenantId } = await platform.tenant('Password Co');
    const email = 'hash@passwords.test';
    const added = await platform.admin.post(`/tenants/${tenantId}/members`, {
      name: 'Hash',
      email,
      role: 'Staff',
      password: PASSWORD,
    });
    expect(added.status).toBe(201);
    expect((await login(platform, tenantId, email, PASSWORD)).status).toBe(200);
    await platform.stop();
    expect(await storedHash(tenantId, email)).toMatch(ARGON2ID_OWASP);

    // As an earlier version left it.
    const old = await storedHash(tenantId, email, scryptHash(PASSWORD));
    platform = await startTestPlatform({}, dataDir);
    expect((await login(platform, tenantId, email, 'wrong horse battery')).status).toBe(401);
    await platform.stop();
    expect(await storedHash(tenantId, email)).toBe(old);

    platform = await startTestPlatform({}, dataDir);
    expect((await login(platform, tenantId, email, PASSWORD)).status).toBe(200);
    await platform.stop();
    const rehashed = await storedHash(tenantId, email);
    expect(rehashed).toMatch(ARGON2ID_OWASP);

    platform = await startTestPlatform({}, dataDir);
    expect((await login(platform, tenantId, email, PASSWORD)).status).toBe(200);
    await platform.stop();
    // Already current: left as it is.
    expect(await storedHash(tenantId, email)).toBe(rehashed);
  }, 180_000);
});
