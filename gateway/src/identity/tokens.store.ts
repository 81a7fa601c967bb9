// API tokens: issue, revoke, list. The token record lives in its tenant's namespace, committed
// with its outbox event; a platform index doc keyed by sha256(secret) finds it in one get (see
// token-lookup.ts). The index is written first: if the process dies before the token commit, the
// index points at nothing and the secret (never returned) is simply unusable.
import { AppError, newId, nowIso } from '@fieldops/kit';
import { domainEvent } from '@fieldops/kit/events';
import { PLATFORM_TENANT, StoreConflict, type DocumentStore, type Page } from '@fieldops/kit/store';
import { actorRef, contextFor, type Actor } from './actor.ts';
import { C, tokenSecretDocId, withoutVersion, type TokenDoc, type TokenSecretDoc } from './collections.ts';
import type { MemberStore } from './members.store.ts';
import type { ApiToken, Role, Tenant } from './model.ts';
import { pageOf, type ListQuery } from './paging.ts';
import { normalize } from './permissions.ts';
import type { RoleStore } from './roles.store.ts';
import type { TokenCaps } from './token-caps.ts';
import type { Permissions } from './scopes.ts';
import { newTokenSecret, redact, sha256Hex } from './secrets.ts';
import { createTokenLookup } from './token-lookup.ts';
import { activeTokens, checkTokenCap } from './token-caps.ts';
import { checkExpiry, checkIssuerCeiling, checkMemberRole, checkNarrowing } from './token-rules.ts';

export { DEFAULT_TOKEN_CAPS, type TokenCaps } from './token-caps.ts';

export interface NewToken {
  name?: string;
  role: string;
  permissions?: Permissions;
  projectIds?: string[];
  memberId?: string;
  expiresAt?: string;
}

export interface IssueOptions {
  /** Portal: the issuing member's role; the token's role must stay within it. */
  ceiling?: { name: string; permissions: Permissions };
}

export interface IssuedToken {
  token: ApiToken;
  /** Shown once; only its hash is stored. */
  secret: string;
}

const toToken = (doc: TokenDoc): ApiToken => withoutVersion<ApiToken>(doc);

export function createTokenStore(
  store: DocumentStore,
  roles: RoleStore,
  members: MemberStore,
  caps: TokenCaps,
) {
  /** Every limit on issuing; returns the role the token is issued against. */
  async function checkIssue(tenant: Tenant, input: NewToken, options: IssueOptions): Promise<Role> {
    const role = await roles.require(tenant.id, input.role);
    checkNarrowing(role, input.permissions);
    if (options.ceiling) checkIssuerCeiling(role, options.ceiling);
    if (input.memberId) {
      const member = await members.require(tenant.id, input.memberId);
      checkMemberRole(role, member, await roles.find(tenant.id, member.role));
    }
    checkExpiry(input.expiresAt);
    await checkCaps(tenant.id, input.memberId);
    return role;
  }

  /** Each token brings fresh budgets and buckets, so how many a member and a tenant hold is capped. */
  async function checkCaps(tenantId: string, memberId: string | undefined): Promise<void> {
    if (memberId !== undefined) {
      const held = await store.count(C.tokens, tenantId, activeTokens({ memberId }));
      checkTokenCap(held, caps.perMember, `Member ${memberId}`);
    }
    const held = await store.count(C.tokens, tenantId, activeTokens({}));
    checkTokenCap(held, caps.perTenant, 'This tenant');
  }

  async function issue(
    tenant: Tenant,
    input: NewToken,
    actor: Actor,
    options: IssueOptions = {},
  ): Promise<IssuedToken> {
    const role = await checkIssue(tenant, input, options);
    const secret = newTokenSecret();
    const token: ApiToken = {
      id: newId('tok'),
      tenantId: tenant.id,
      ...(input.name ? { name: input.name } : {}),
      secretHash: sha256Hex(secret),
      display: redact(secret),
      role: role.name,
      ...(input.permissions ? { permissions: normalize(input.permissions) } : {}),
      ...(input.projectIds ? { projectIds: input.projectIds } : {}),
      ...(input.memberId ? { memberId: input.memberId } : {}),
      ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
      createdAt: nowIso(),
      createdBy: actorRef(actor),
    };
    const index: TokenSecretDoc = {
      id: tokenSecretDocId(token.secretHash),
      tenantId: PLATFORM_TENANT,
      version: 1,
      tokenTenantId: tenant.id,
      tokenId: token.id,
    };
    const { secretHash: _hash, ...data } = token;
    const event = domainEvent(
      'gateway',
      contextFor(actor, tenant, 'issueToken'),
      'token.issued',
      ref(token),
      data,
    );
    await store.commit(PLATFORM_TENANT, [{ op: 'insert', collection: C.tokenSecrets, doc: index }]);
    try {
      await store.commit(tenant.id, [
        { op: 'insert', collection: C.tokens, doc: { ...token, version: 1 } },
        { op: 'emit', event },
      ]);
    } catch (err) {
      // Best effort: an index left behind points at no token and its secret was never shown.
      await store
        .commit(PLATFORM_TENANT, [{ op: 'delete', collection: C.tokenSecrets, id: index.id }])
        .catch(() => undefined);
      throw err;
    }
    return { token, secret };
  }

  /** Sets revokedAt/revokedBy; effective on the next request. Revoking twice changes nothing. */
  async function revoke(tenant: Tenant, tokenId: string, actor: Actor): Promise<ApiToken> {
    for (let attempt = 0; ; attempt++) {
      const doc = await requireDoc(tenant.id, tokenId);
      if (doc.revokedAt) return toToken(doc);
      const revoked: TokenDoc = {
        ...doc,
        revokedAt: nowIso(),
        revokedBy: actorRef(actor),
        version: doc.version + 1,
      };
      const data = { display: doc.display, revokedAt: revoked.revokedAt, revokedBy: revoked.revokedBy };
      const event = domainEvent(
        'gateway',
        contextFor(actor, tenant, 'revokeToken'),
        'token.revoked',
        ref(doc),
        data,
      );
      try {
        await store.commit(tenant.id, [
          { op: 'replace', collection: C.tokens, doc: revoked, expectedVersion: doc.version },
          { op: 'emit', event },
        ]);
        return toToken(revoked);
      } catch (err) {
        // A lastUsedAt write may have raced us; read again and retry.
        if (!(err instanceof StoreConflict && err.reason === 'version') || attempt >= 4) throw err;
      }
    }
  }

  async function requireDoc(tenantId: string, tokenId: string): Promise<TokenDoc> {
    const doc = await store.get<TokenDoc>(C.tokens, tenantId, tokenId);
    if (!doc) throw new AppError('not_found', `No token with id ${tokenId} exists in this tenant.`);
    return doc;
  }

  return {
    issue,
    revoke,
    ...createTokenLookup(store),
    async get(tenantId: string, tokenId: string): Promise<ApiToken | null> {
      const doc = await store.get<TokenDoc>(C.tokens, tenantId, tokenId);
      return doc ? toToken(doc) : null;
    },
    /** Newest first; `memberId` keeps one member's tokens. */
    list(tenantId: string, query: ListQuery, filter: { memberId?: string } = {}): Promise<Page<ApiToken>> {
      const where = filter.memberId ? { memberId: filter.memberId } : {};
      return pageOf(store, C.tokens, tenantId, query, toToken, 'desc', where);
    },
    count(tenantId: string): Promise<number> {
      return store.count(C.tokens, tenantId, {});
    },
  };
}

const ref = (token: { id: string }) => ({ kind: 'token', id: token.id });

export type TokenStore = ReturnType<typeof createTokenStore>;
