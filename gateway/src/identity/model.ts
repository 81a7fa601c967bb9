// The gateway's identity records as the rest of the gateway sees them. Stored shapes (with the
// store's tenantId/version bookkeeping) live in collections.ts; HTTP shapes in views.ts.
import type { Permissions } from './scopes.ts';

export interface Tenant {
  id: string;
  name: string;
  /** ISO 4217; deals are created in this currency. */
  currency: string;
  /** Vertical a project gets when created without one. */
  defaultVertical: string;
  createdAt: string;
}

export interface Member {
  id: string;
  tenantId: string;
  name: string;
  /** Lower-cased; unique within the tenant. */
  email: string;
  /** Name of a built-in or custom role. */
  role: string;
  /** `scrypt$N$r$p$salt$hash`; absent for members who never log in to the portal. */
  passwordHash?: string;
  createdAt: string;
}

export interface Role {
  /** Built-in roles have id `role_<name>`; custom roles an opaque `role_…` id. */
  id: string;
  tenantId: string;
  name: string;
  permissions: Permissions;
  builtIn: boolean;
}

export interface ApiToken {
  id: string;
  tenantId: string;
  /** A label for people ("CI agent"); not used for anything else. */
  name?: string;
  /** sha256 of the secret, hex; the secret itself is never stored. */
  secretHash: string;
  /** Redacted copy shown in lists, e.g. `fop_ab12…9xyz`. */
  display: string;
  role: string;
  /** Narrowing (kind → verbs) within the role; absent means the whole role. */
  permissions?: Permissions;
  /** Project restriction; absent means every project of the tenant. */
  projectIds?: string[];
  memberId?: string;
  expiresAt?: string;
  revokedAt?: string;
  /** `operator`, `system` or the id of the member who revoked it. */
  revokedBy?: string;
  createdAt: string;
  /** `operator`, `system` or the id of the member who issued it. */
  createdBy: string;
  /** Coarse (see LAST_USED_GRANULARITY_MS in tokens.store.ts): written at most once per interval. */
  lastUsedAt?: string;
}

export interface Session {
  /** Public id (`ses_…`), safe to log; the cookie secret is only stored as a hash. */
  id: string;
  tenantId: string;
  memberId: string;
  createdAt: string;
  expiresAt: string;
}

/** What the pipeline gets after authentication. */
export interface Caller {
  kind: 'token' | 'session';
  tenant: Tenant;
  /** The token id; for a session, the session's public id, so per-credential buckets work for both. */
  tokenId: string;
  sessionId?: string;
  /** For a member-bound token, the role's permissions within the member's current role. */
  role: { name: string; permissions: Permissions };
  member: Member | null;
  narrowing: Permissions | null;
  /** role ∩ narrowing: what the credential may do. */
  effective: Permissions;
  projectIds: string[] | null;
  expiresAt: string | null;
}
