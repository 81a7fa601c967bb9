// Finding a token by its secret on every request, and recording its use without a write per
// request.
import { PLATFORM_TENANT, StoreConflict, type DocumentStore } from '@fieldops/kit/store';
import { C, tokenSecretDocId, withoutVersion, type TokenDoc, type TokenSecretDoc } from './collections.ts';
import type { ApiToken } from './model.ts';
import { sameDigest, sha256Hex } from './secrets.ts';

/**
 * lastUsedAt is kept at this granularity: the token is rewritten only when the stored value is
 * older, so authentication costs at most one write per token per interval, not one per request.
 */
export const LAST_USED_GRANULARITY_MS = 10 * 60_000;

/** Where a token lives: what the index doc keyed by its secret's hash says. */
interface TokenLocation {
  tokenTenantId: string;
  tokenId: string;
}

/** Hashes whose index docs are remembered; beyond it the oldest is forgotten (and read again). */
export const LOCATION_CACHE_SIZE = 10_000;

/**
 * Secret hash → token location, bounded, oldest out first. Safe to cache: an index doc is written
 * once with the token and never changed, and a hash whose index is missing is never cached (so a
 * token issued in another process is found at once). It holds hashes, never secrets.
 */
function createLocationCache() {
  const entries = new Map<string, TokenLocation>();
  return {
    get: (hash: string) => entries.get(hash),
    set(hash: string, location: TokenLocation): void {
      if (entries.size >= LOCATION_CACHE_SIZE) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(hash, location);
    },
  };
}

export function createTokenLookup(store: DocumentStore) {
  const located = createLocationCache();

  /** Where the token of this secret hash lives: the index doc, read once per hash while cached. */
  async function locate(hash: string): Promise<TokenLocation | null> {
    const cached = located.get(hash);
    if (cached) return cached;
    const index = await store.get<TokenSecretDoc>(C.tokenSecrets, PLATFORM_TENANT, tokenSecretDocId(hash));
    if (!index) return null;
    const location = { tokenTenantId: index.tokenTenantId, tokenId: index.tokenId };
    located.set(hash, location);
    return location;
  }

  /**
   * The token whose secret this is, or null. The token itself is read on every call, so a
   * revocation, an expiry or a deletion takes effect on the next request in every process.
   */
  async function findBySecret(secret: string): Promise<ApiToken | null> {
    const hash = sha256Hex(secret);
    const index = await locate(hash);
    if (!index) return null;
    const doc = await store.get<TokenDoc>(C.tokens, index.tokenTenantId, index.tokenId);
    // The index id already matched the hash; comparing again in constant time guards a stale index.
    return doc && sameDigest(doc.secretHash, hash) ? withoutVersion<ApiToken>(doc) : null;
  }

  /** Records use at LAST_USED_GRANULARITY_MS; a lost race (e.g. with a revoke) is simply skipped. */
  async function touch(token: ApiToken, now = Date.now()): Promise<void> {
    if (token.lastUsedAt && now - Date.parse(token.lastUsedAt) < LAST_USED_GRANULARITY_MS) return;
    const doc = await store.get<TokenDoc>(C.tokens, token.tenantId, token.id);
    if (!doc || doc.revokedAt) return;
    const used: TokenDoc = { ...doc, lastUsedAt: new Date(now).toISOString(), version: doc.version + 1 };
    try {
      await store.commit(token.tenantId, [
        { op: 'replace', collection: C.tokens, doc: used, expectedVersion: doc.version },
      ]);
    } catch (err) {
      if (!(err instanceof StoreConflict)) throw err;
    }
  }

  return { findBySecret, touch };
}
