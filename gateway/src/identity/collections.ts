// Where identity lives in the gateway's DocumentStore.
//
// Platform namespace (PLATFORM_TENANT), for what must be found before the tenant is known:
//   tenants        the tenant directory (id = tenant id)
//   token_secrets  id = `tks_` + sha256(secret) → {tokenTenantId, tokenId}: the O(1) lookup index
//   sessions       id = `sss_` + sha256(cookie secret) → the session
// Each tenant's namespace, so every change commits atomically with its outbox event:
//   members, roles, tokens
import type { CollectionSpec, Doc, DocumentStore } from '@fieldops/kit/store';
import type { ApiToken, Member, Role, Tenant } from './model.ts';

export const C = {
  tenants: 'tenants',
  members: 'members',
  roles: 'roles',
  tokens: 'tokens',
  tokenSecrets: 'token_secrets',
  sessions: 'sessions',
} as const;

/** Stored shapes: the model plus the store's bookkeeping. The tenant doc's tenantId is PLATFORM_TENANT. */
export type TenantDoc = Doc & Tenant;
export type MemberDoc = Doc & Member;
/** `nameKey` is the lower-cased name: custom role names are unique regardless of case. */
export type RoleDoc = Doc & Omit<Role, 'builtIn'> & { nameKey: string; createdAt: string; createdBy: string };
export type TokenDoc = Doc & ApiToken;
export type TokenSecretDoc = Doc & { tokenTenantId: string; tokenId: string };
export type SessionDoc = Doc & {
  sessionId: string;
  sessionTenantId: string;
  memberId: string;
  createdAt: string;
  expiresAt: string;
};

export const tokenSecretDocId = (secretHash: string): string => `tks_${secretHash}`;
export const sessionDocId = (secretHash: string): string => `sss_${secretHash}`;

/** The gateway store's identity collections: what defineCollections defines, the migration builds. */
export const IDENTITY_COLLECTIONS: readonly CollectionSpec[] = [
  { name: C.tenants, indexes: [['createdAt']] },
  { name: C.members, unique: [['email']], indexes: [['createdAt']] },
  { name: C.roles, unique: [['nameKey']] },
  { name: C.tokens, indexes: [['createdAt'], ['memberId', 'createdAt']] },
  { name: C.tokenSecrets },
  { name: C.sessions, indexes: [['expiresAt'], ['sessionTenantId', 'memberId']] },
];

export async function defineCollections(store: DocumentStore): Promise<void> {
  for (const spec of IDENTITY_COLLECTIONS) await store.define(spec);
}

/** Strips the store's bookkeeping off a document. (Omit<> cannot: Doc's index signature swallows the keys.) */
export function withoutVersion<T extends object>(doc: Doc & T): T {
  const { version: _version, ...rest } = doc;
  return rest as unknown as T;
}
