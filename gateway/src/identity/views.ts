// What leaves the gateway about identity records: never a secret, a secret hash or a password
// hash. Absent optional fields are rendered as null so clients see one shape.
import type { ApiToken, Member } from './model.ts';
import type { Permissions } from './scopes.ts';

export type TokenStatus = 'active' | 'revoked' | 'expired';

export interface TokenView {
  id: string;
  name: string | null;
  display: string;
  role: string;
  permissions: Permissions | null;
  projectIds: string[] | null;
  memberId: string | null;
  expiresAt: string | null;
  status: TokenStatus;
  createdAt: string;
  createdBy: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
}

export function tokenStatus(token: ApiToken, now = Date.now()): TokenStatus {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) return 'expired';
  return 'active';
}

export const tokenView = (token: ApiToken): TokenView => ({
  id: token.id,
  name: token.name ?? null,
  display: token.display,
  role: token.role,
  permissions: token.permissions ?? null,
  projectIds: token.projectIds ?? null,
  memberId: token.memberId ?? null,
  expiresAt: token.expiresAt ?? null,
  status: tokenStatus(token),
  createdAt: token.createdAt,
  createdBy: token.createdBy,
  lastUsedAt: token.lastUsedAt ?? null,
  revokedAt: token.revokedAt ?? null,
  revokedBy: token.revokedBy ?? null,
});

export interface MemberView {
  id: string;
  tenantId: string;
  name: string;
  email: string;
  role: string;
  /** Whether a password is set (the member can log in to the portal); never the hash. */
  canLogIn: boolean;
  createdAt: string;
}

export const memberView = (member: Member): MemberView => ({
  id: member.id,
  tenantId: member.tenantId,
  name: member.name,
  email: member.email,
  role: member.role,
  canLogIn: Boolean(member.passwordHash),
  createdAt: member.createdAt,
});
