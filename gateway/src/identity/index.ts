// The gateway's identity module: tenants, members, roles, API tokens and portal sessions in the
// gateway's own DocumentStore. The pipeline calls authenticateBearer / authorize per request.
import type { DocumentStore } from '@fieldops/kit/store';
import { defineCollections } from './collections.ts';
import { createMemberStore, type MemberStore } from './members.store.ts';
import { createRoleStore, type RoleStore } from './roles.store.ts';
import { createSessionStore, type SessionStore } from './sessions.store.ts';
import { createTenantStore, type TenantStore } from './tenants.store.ts';
import { createTokenStore, DEFAULT_TOKEN_CAPS, type TokenCaps, type TokenStore } from './tokens.store.ts';

export interface Identity {
  store: DocumentStore;
  tenants: TenantStore;
  members: MemberStore;
  roles: RoleStore;
  tokens: TokenStore;
  sessions: SessionStore;
}

export async function openIdentity({
  store,
  tokenCaps = DEFAULT_TOKEN_CAPS,
}: {
  store: DocumentStore;
  /** How many active tokens a member and a tenant may hold (config.tokenCaps). */
  tokenCaps?: TokenCaps;
}): Promise<Identity> {
  await defineCollections(store);
  const roles = createRoleStore(store);
  const members = createMemberStore(store, roles);
  return {
    store,
    tenants: createTenantStore(store),
    members,
    roles,
    tokens: createTokenStore(store, roles, members, tokenCaps),
    sessions: createSessionStore(store),
  };
}
