// Finding a token by its secret on every request, and recording its use without a write per
// request.
import { PLATFORM_TENANT, StoreConflict } from '@fieldops/kit/store/port';
import type { DocumentStore } from '@fieldops/kit/store/port';
import { C, tokenSecretDocId, withoutVersion } from './collections.js';
import type { TokenDoc, TokenSecretDoc } from './collections.js';
import type { ApiToken } from './model.js';
import { sameDigest, sha256Hex } from './secrets.js';

/**
 * lastUsedAt is kept at this granularity: the token is rewritten only when the stored value is
 * older, so authentication costs at most one write per token per interval, not one per request.
 */
export const LAST_USED_GRANULARITY_MS = 10 * 60_000;

export function createTokenLookup(store: DocumentStore) {
  /** The token whose secret this is, or null. One get for the index, one for the token. */
  async function findBySecret(secret: string): Promise<ApiToken | null> {
    const hash = sha256Hex(secret);
    const index = await store.get<TokenSecretDoc>(C.tokenSecrets, PLATFORM_TENANT, tokenSecretDocId(hash));
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
