// Signed links: only a link we signed, unaltered, unexpired and of an expected kind names a
// document; a retirable link must carry its nonce; the signing key is made once and survives a
// restart of the store.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLinkKeyring, signLink, verifyLink, verifyRetirableLink } from '../src/domain/signed-links.ts';
import type { LinkClaims, LinkKey } from '../src/domain/signed-links.ts';
import { openEmbeddedStore } from '../src/store/embedded.ts';

const KINDS = ['proposal', 'invoice'] as const;
const key: LinkKey = { id: 'k1', secret: randomBytes(32) };
const keys = new Map([[key.id, key]]);
const NOW = Date.parse('2026-05-01T00:00:00Z');
const claims: LinkClaims<'proposal' | 'invoice'> = {
  tenantId: 'ten_a',
  kind: 'proposal',
  id: 'prop_1',
  expiresAt: NOW + 60_000,
};

const payloadOf = (token: string): unknown =>
  JSON.parse(Buffer.from(token.split('.')[2] ?? '', 'base64url').toString('utf8'));

describe('signed links', () => {
  it('verify what was signed, until the expiry', () => {
    const token = signLink(key, claims);
    expect(payloadOf(token)).toEqual({ t: 'ten_a', k: 'proposal', i: 'prop_1', e: (NOW + 60_000) / 1000 });
    expect(verifyLink(keys, token, NOW, KINDS)).toEqual({ ok: true, claims });
    expect(verifyLink(keys, token, NOW + 60_000, KINDS)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuse a changed claim, another key, a foreign key id and junk', () => {
    const token = signLink(key, claims);
    const [version, keyId, , mac] = token.split('.') as [string, string, string, string];
    const forged = Buffer.from(JSON.stringify({ t: 'ten_b', k: 'proposal', i: 'prop_1', e: 2e9 })).toString(
      'base64url',
    );
    expect(verifyLink(keys, `${version}.${keyId}.${forged}.${mac}`, NOW, KINDS)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    const other = signLink({ id: 'k1', secret: randomBytes(32) }, claims);
    expect(verifyLink(keys, other, NOW, KINDS)).toEqual({ ok: false, reason: 'bad_signature' });
    const unknownKey = signLink({ id: 'k9', secret: key.secret }, claims);
    expect(verifyLink(keys, unknownKey, NOW, KINDS)).toEqual({ ok: false, reason: 'bad_signature' });
    for (const junk of ['', 'v1', 'v1.k1.x', 'v2.k1.a.b', 'x'.repeat(2000)]) {
      expect(verifyLink(keys, junk, NOW, KINDS)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('refuse a signed link of a kind the caller does not take', () => {
    const token = signLink(key, { ...claims, kind: 'project' });
    expect(verifyLink(keys, token, NOW, KINDS)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('carry the nonce of a retirable link, and refuse one without it', () => {
    const retirable = { ...claims, nonce: 'n0nce' };
    const token = signLink(key, retirable);
    expect(verifyRetirableLink(keys, token, NOW, KINDS)).toEqual({ ok: true, claims: retirable });
    expect(verifyRetirableLink(keys, signLink(key, claims), NOW, KINDS)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });
});

describe('link keyrings', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fieldops-links-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('make the key once and find the same key after a restart', async () => {
    let store = await openEmbeddedStore({ dir });
    await store.define({ name: 'link_keys' });
    const [first, second] = await Promise.all([
      openLinkKeyring(store, 'link_keys', 'k1'),
      openLinkKeyring(store, 'link_keys', 'k1'),
    ]);
    expect(first.current.id).toBe('k1');
    expect(first.current.secret.length).toBe(32);
    expect(second.current.secret.equals(first.current.secret)).toBe(true);
    await store.close();

    store = await openEmbeddedStore({ dir });
    await store.define({ name: 'link_keys' });
    const reopened = await openLinkKeyring(store, 'link_keys', 'k1');
    expect(reopened.current.secret.equals(first.current.secret)).toBe(true);
    expect([...reopened.all.keys()]).toEqual(['k1']);
    const token = signLink(first.current, claims);
    expect(verifyLink(reopened.all, token, NOW, KINDS).ok).toBe(true);
    await store.close();
  });
});
