// Portal sessions. The cookie carries a random secret; the store keeps only its sha256 (as the
// doc id, so lookup is one get) in the platform namespace, because the tenant is not known until
// the session is found. Sessions expire SESSION_TTL_MS after login, however active they are.
import { newId, nowIso } from '@fieldops/kit';
import { PLATFORM_TENANT, StoreConflict, type DocumentStore, type WriteOp } from '@fieldops/kit/store';
import { C, sessionDocId, type SessionDoc } from './collections.ts';
import type { Member, Session } from './model.ts';
import { looksLikeSessionSecret, newSessionSecret, sha256Hex } from './secrets.ts';

export const SESSION_TTL_MS = 12 * 60 * 60_000;
/** Expired sessions removed per login, so abandoned ones do not pile up. */
const PURGE_BATCH = 50;

const toSession = (doc: SessionDoc): Session => ({
  id: doc.sessionId,
  tenantId: doc.sessionTenantId,
  memberId: doc.memberId,
  createdAt: doc.createdAt,
  expiresAt: doc.expiresAt,
});

const docIdOf = (secret: string): string => sessionDocId(sha256Hex(secret));

export function createSessionStore(store: DocumentStore) {
  async function remove(docId: string): Promise<void> {
    try {
      await store.commit(PLATFORM_TENANT, [{ op: 'delete', collection: C.sessions, id: docId }]);
    } catch (err) {
      if (!(err instanceof StoreConflict)) throw err; // already gone
    }
  }

  async function purgeExpired(now: string): Promise<void> {
    const expired = await store.find<SessionDoc>(
      C.sessions,
      PLATFORM_TENANT,
      { expiresAt: { $lte: now } },
      { limit: PURGE_BATCH },
    );
    const ops: WriteOp[] = expired.map((doc) => ({ op: 'delete', collection: C.sessions, id: doc.id }));
    if (ops.length) await store.commit(PLATFORM_TENANT, ops).catch(() => undefined); // retried next login
  }

  return {
    /** A new session for the member; the secret goes in the cookie and is not kept. */
    async create(member: Member, now = Date.now()): Promise<{ secret: string; session: Session }> {
      await purgeExpired(new Date(now).toISOString());
      const secret = newSessionSecret();
      const doc: SessionDoc = {
        id: docIdOf(secret),
        tenantId: PLATFORM_TENANT,
        version: 1,
        sessionId: newId('ses'),
        sessionTenantId: member.tenantId,
        memberId: member.id,
        createdAt: nowIso(),
        expiresAt: new Date(now + SESSION_TTL_MS).toISOString(),
      };
      await store.commit(PLATFORM_TENANT, [{ op: 'insert', collection: C.sessions, doc }]);
      return { secret, session: toSession(doc) };
    },

    /** The live session for this cookie secret, or null; an expired one is deleted on sight. */
    async lookup(secret: string, now = Date.now()): Promise<Session | null> {
      if (!looksLikeSessionSecret(secret)) return null;
      const doc = await store.get<SessionDoc>(C.sessions, PLATFORM_TENANT, docIdOf(secret));
      if (!doc) return null;
      if (Date.parse(doc.expiresAt) > now) return toSession(doc);
      await remove(doc.id);
      return null;
    },

    /** Logout: idempotent. */
    async delete(secret: string): Promise<void> {
      if (looksLikeSessionSecret(secret)) await remove(docIdOf(secret));
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
