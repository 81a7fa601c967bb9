// The capability token of client page links: only a token we signed, unaltered and unexpired,
// names a page; every other string is refused with the reason the service maps to 404.
import { randomBytes } from 'node:crypto';
import { signPageToken, verifyPageToken } from '../src/client-pages/page-token.ts';
import type { PageClaims, PageKey } from '../src/client-pages/page-token.ts';

const key: PageKey = { id: 'p1', secret: randomBytes(32) };
const keys = new Map([[key.id, key]]);
const NOW = Date.parse('2026-05-01T00:00:00Z');
const claims: PageClaims = { tenantId: 'ten_a', kind: 'project', id: 'proj_1', expiresAt: NOW + 60_000 };

describe('page tokens', () => {
  it('verify what was signed, until the expiry', () => {
    const token = signPageToken(key, claims);
    expect(verifyPageToken(keys, token, NOW)).toEqual({ ok: true, claims });
    expect(verifyPageToken(keys, token, NOW + 60_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuse a changed claim, another key, a foreign key id and junk', () => {
    const token = signPageToken(key, claims);
    const [version, keyId, , mac] = token.split('.') as [string, string, string, string];
    const forged = Buffer.from(JSON.stringify({ t: 'ten_b', k: 'project', i: 'proj_1', e: 2e9 })).toString(
      'base64url',
    );
    expect(verifyPageToken(keys, `${version}.${keyId}.${forged}.${mac}`, NOW).ok).toBe(false);
    const other = signPageToken({ id: 'p1', secret: randomBytes(32) }, claims);
    expect(verifyPageToken(keys, other, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    const unknownKey = signPageToken({ id: 'p9', secret: key.secret }, claims);
    expect(verifyPageToken(keys, unknownKey, NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    for (const junk of ['', 'v1', 'v1.p1.x', 'v2.p1.a.b', 'x'.repeat(2000)]) {
      expect(verifyPageToken(keys, junk, NOW)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('refuse a signed payload of an unknown kind', () => {
    const token = signPageToken(key, { ...claims, kind: 'invoice' as 'project' });
    expect(verifyPageToken(keys, token, NOW)).toEqual({ ok: false, reason: 'malformed' });
  });
});
