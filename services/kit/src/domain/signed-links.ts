// Signed, expiring links: the capability a customer-facing page is opened with (crm's proposal and
// invoice links, projects' client pages). Whoever holds a link may act on that one document until it
// expires, nothing else. A link is
//   v1.<keyId>.<payload>.<mac>
// with payload = base64url(JSON {t: tenant, k: kind, i: id, [n: nonce,] e: expiry in epoch seconds})
// and mac = base64url(HMAC-SHA256(key, "v1.<keyId>.<payload>")). The server mints every link and
// never accepts one it did not sign; the MAC is compared in constant time. A retirable link also
// carries a nonce that is stored on its document, so minting a new link (or withdrawing the
// document) retires the old one; a link without one lives until its expiry.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { nowIso } from '../ids.ts';
import { PLATFORM_TENANT, StoreConflict } from '../store/port.ts';
import type { Doc, DocumentStore } from '../store/port.ts';

export interface LinkKey {
  id: string;
  secret: Buffer;
}

export interface LinkKeyring {
  /** The key new links are signed with. */
  current: LinkKey;
  /** Every key a link may have been signed with, by id. */
  all: ReadonlyMap<string, LinkKey>;
}

/** What a link names. */
export interface LinkClaims<K extends string = string> {
  tenantId: string;
  kind: K;
  id: string;
  /** Epoch milliseconds after which the link is refused. */
  expiresAt: number;
}

/** The claims of a link a newer one (or a withdrawal) retires: its nonce is kept on the document. */
export type RetirableLinkClaims<K extends string = string> = LinkClaims<K> & { nonce: string };

export type LinkCheck<C> =
  { ok: true; claims: C } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

const VERSION = 'v1';
const MAX_TOKEN_LENGTH = 1024;

const mac = (key: LinkKey, signed: string): Buffer =>
  createHmac('sha256', key.secret).update(signed).digest();

export const newLinkNonce = (): string => randomBytes(16).toString('base64url');

/** Signs the claims with the key; a nonce is carried when the claims have one. */
export function signLink(key: LinkKey, claims: LinkClaims & { nonce?: string }): string {
  const payload = Buffer.from(
    JSON.stringify({
      t: claims.tenantId,
      k: claims.kind,
      i: claims.id,
      n: claims.nonce,
      e: Math.floor(claims.expiresAt / 1000),
    }),
  ).toString('base64url');
  const signed = `${VERSION}.${key.id}.${payload}`;
  return `${signed}.${mac(key, signed).toString('base64url')}`;
}

/** Verifies a link of one of `kinds` against the keys we hold; `now` in epoch milliseconds. */
export function verifyLink<K extends string>(
  keys: ReadonlyMap<string, LinkKey>,
  token: string,
  now: number,
  kinds: readonly K[],
): LinkCheck<LinkClaims<K>> {
  return check(keys, token, now, (raw) => parseClaims(raw, kinds));
}

/** As verifyLink, for links that must carry a nonce (a link without one is malformed). */
export function verifyRetirableLink<K extends string>(
  keys: ReadonlyMap<string, LinkKey>,
  token: string,
  now: number,
  kinds: readonly K[],
): LinkCheck<RetirableLinkClaims<K>> {
  return check(keys, token, now, (raw) => {
    const claims = parseClaims(raw, kinds);
    return claims && typeof raw.n === 'string' ? { ...claims, nonce: raw.n } : undefined;
  });
}

function check<C extends LinkClaims>(
  keys: ReadonlyMap<string, LinkKey>,
  token: string,
  now: number,
  parse: (raw: Record<string, unknown>) => C | undefined,
): LinkCheck<C> {
  if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) return { ok: false, reason: 'malformed' };
  const [, keyId, payload, sent] = parts as [string, string, string, string];
  const key = keys.get(keyId);
  if (!key) return { ok: false, reason: 'bad_signature' };
  const expected = mac(key, `${VERSION}.${keyId}.${payload}`);
  const given = Buffer.from(sent, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'bad_signature' };
  }
  const raw = decodePayload(payload);
  const claims = raw && parse(raw);
  if (!claims) return { ok: false, reason: 'malformed' };
  if (claims.expiresAt <= now) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}

function decodePayload(payload: string): Record<string, unknown> | undefined {
  try {
    const raw: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function parseClaims<K extends string>(
  raw: Record<string, unknown>,
  kinds: readonly K[],
): LinkClaims<K> | undefined {
  const { t, k, i, e } = raw;
  if (typeof t !== 'string' || typeof i !== 'string' || typeof e !== 'number') return undefined;
  if (!kinds.includes(k as K)) return undefined;
  return { tenantId: t, kind: k as K, id: i, expiresAt: e * 1000 };
}

interface LinkKeyDoc extends Doc {
  secret: string;
  createdAt: string;
}

/**
 * The keyring a service signs its links with. The key is generated on the service's first start and
 * kept in its own store (platform namespace, `collection`), so links stay valid across restarts and
 * no operator has to provision a secret. Keys carry an id, so a rotation can add a key while links
 * signed with an older one are still honoured until they expire.
 */
export async function openLinkKeyring(
  store: DocumentStore,
  collection: string,
  firstKeyId: string,
): Promise<LinkKeyring> {
  const doc =
    (await store.get<LinkKeyDoc>(collection, PLATFORM_TENANT, firstKeyId)) ??
    (await firstKey(store, collection, firstKeyId));
  const current: LinkKey = { id: doc.id, secret: Buffer.from(doc.secret, 'base64') };
  return { current, all: new Map([[current.id, current]]) };
}

async function firstKey(store: DocumentStore, collection: string, id: string): Promise<LinkKeyDoc> {
  const fresh: LinkKeyDoc = {
    id,
    tenantId: PLATFORM_TENANT,
    version: 1,
    secret: randomBytes(32).toString('base64'),
    createdAt: nowIso(),
  };
  try {
    await store.commit(PLATFORM_TENANT, [{ op: 'insert', collection, doc: fresh }]);
    return fresh;
  } catch (error) {
    // Another instance generated it first: use theirs.
    if (!(error instanceof StoreConflict)) throw error;
    const theirs = await store.get<LinkKeyDoc>(collection, PLATFORM_TENANT, id);
    if (!theirs) throw error;
    return theirs;
  }
}
