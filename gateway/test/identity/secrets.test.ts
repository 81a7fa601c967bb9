import { randomBytes, scryptSync } from 'node:crypto';
import {
  hashPassword,
  looksLikeTokenSecret,
  newTokenSecret,
  randomBase62,
  redact,
  sameDigest,
  sameSecret,
  sha256Hex,
  needsRehash,
  verifyPassword,
} from '../../src/identity/secrets.ts';

describe('token secrets', () => {
  it('are fop_ plus 40 base62 characters, different every time', () => {
    const secrets = new Set(Array.from({ length: 200 }, newTokenSecret));
    expect(secrets.size).toBe(200);
    for (const secret of secrets) {
      expect(secret).toMatch(/^fop_[0-9A-Za-z]{40}$/);
      expect(looksLikeTokenSecret(secret)).toBe(true);
    }
    expect(looksLikeTokenSecret('fop_short')).toBe(false);
    expect(looksLikeTokenSecret(`fop_${'a'.repeat(39)}-`)).toBe(false);
  });

  it('use the whole base62 alphabet without bias towards its first characters', () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(62_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected 1000 each; a modulo bias (256 % 62 = 8) would give the first 8 characters ~1.24×.
    for (const count of counts.values()) expect(count).toBeGreaterThan(850);
    for (const count of counts.values()) expect(count).toBeLessThan(1150);
  });

  it('are shown redacted and stored as a sha256 digest', () => {
    const secret = 'fop_ab12cdefghijklmnopqrstuvwxyzABCDEF9xyz';
    expect(redact(secret)).toBe('fop_ab12…9xyz');
    expect(sha256Hex(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(sha256Hex(secret)).not.toContain('ab12');
  });

  it('compare in constant time, refusing different lengths', () => {
    const digest = sha256Hex('x');
    expect(sameDigest(digest, sha256Hex('x'))).toBe(true);
    expect(sameDigest(digest, sha256Hex('y'))).toBe(false);
    expect(sameDigest(digest, digest.slice(0, 10))).toBe(false);
    expect(sameDigest('', '')).toBe(false);
    expect(sameSecret('admin-secret-value', 'admin-secret-value')).toBe(true);
    expect(sameSecret('admin-secret-value', 'admin-secret-valuE')).toBe(false);
  });
});

describe('member passwords', () => {
  it('are hashed with Argon2id at OWASP parameters, salted, with the parameters stored', async () => {
    const one = await hashPassword('correct horse battery');
    const two = await hashPassword('correct horse battery');
    expect(one).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(needsRehash(one)).toBe(false);
    expect(one).not.toBe(two);
    expect(one).not.toContain('horse');
  });

  it('verify only the right password', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('anything', 'not-a-hash')).toBe(false);
  });

  it('still verify an scrypt hash of an earlier version, which needs a rehash', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('correct horse battery', salt, 32, { N: 16384, r: 8, p: 1 });
    const old = ['scrypt', 16384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    expect(await verifyPassword('correct horse battery', old)).toBe(true);
    expect(await verifyPassword('correct horse batterY', old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash((await hashPassword('x')).replace('m=19456,t=2', 'm=8192,t=2'))).toBe(true);
  });
});
