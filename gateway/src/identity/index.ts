// The gateway's identity module: tenants, members, roles, API tokens and portal sessions in the
// gateway's own DocumentStore. The pipeline calls authenticateBearer / authorize per request.
import type { DocumentStore } from '@fieldops/kit/store';
import { defineCollections } from './collections.js';
import { createMemberStore, type MemberStore } from './members.store.js';
import { createRoleStore, type RoleStore } from './roles.store.js';
import { createSessionStore, type SessionStore } from './sessions.store.js';
import { createTenantStore, type TenantStore } from './tenants.store.js';
import { createTokenStore, type TokenStore } from './tokens.store.js';

export interface Identity {
  store: DocumentStore;
  tenants: TenantStore;
  members: MemberStore;
  roles: RoleStore;
  tokens: TokenStore;
  sessions: SessionStore;
}

export async function openIdentity({ store }: { store: DocumentStore }): Promise<Identity> {
  await defineCollections(store);
  const roles = createRoleStore(store);
  const members = createMemberStore(store, roles);
  return {
    store,
    tenants: createTenantStore(store),
    members,
    roles,
    tokens: createTokenStore(store, roles, members),
    sessions: createSessionStore(store),
  };
}
