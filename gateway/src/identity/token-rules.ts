// The limits on issuing a token, as pure checks (spec "Authentication" 2: a token can never exceed
// the role it was issued against). Each refusal names the kind and verb that went too far.
import { AppError } from '@fieldops/kit';
import type { Member, Role } from './model.ts';
import { firstExcess } from './permissions.ts';
import type { Permissions } from './scopes.ts';

/** The narrowing must stay within the role. */
export function checkNarrowing(role: Role, narrowing: Permissions | undefined): void {
  const excess = narrowing && firstExcess(narrowing, role.permissions);
  if (!excess) return;
  throw new AppError(
    'field_invalid',
    `permissions grant ${excess.action} on ${excess.kind}, which role ${role.name} does not grant; a token can only narrow its role.`,
    { field: 'permissions', kind: excess.kind, action: excess.action },
  );
}

/** A token bound to a member acts for that member, so its role must be within the member's. */
export function checkMemberRole(role: Role, member: Member, memberRole: Role | null): void {
  const excess = firstExcess(role.permissions, memberRole?.permissions ?? {});
  if (!excess) return;
  throw new AppError(
    'field_invalid',
    `Member ${member.id} has role ${member.role}, which does not grant ${excess.action} on ${excess.kind} as role ${role.name} does; issue the token with a role within the member's.`,
    { field: 'role', kind: excess.kind, action: excess.action },
  );
}

/** Portal: a member issues tokens within their own role, never beyond it. */
export function checkIssuerCeiling(role: Role, issuer: { name: string; permissions: Permissions }): void {
  const excess = firstExcess(role.permissions, issuer.permissions);
  if (!excess) return;
  throw new AppError(
    'role_denied',
    `Your role ${issuer.name} does not grant ${excess.action} on ${excess.kind}, which role ${role.name} grants; issue the token with a role within yours.`,
    { field: 'role', required: { action: excess.action, kind: excess.kind } },
  );
}

export function checkExpiry(expiresAt: string | undefined, now = Date.now()): void {
  if (expiresAt === undefined || Date.parse(expiresAt) > now) return;
  throw new AppError('field_invalid', 'expiresAt must be in the future.', { field: 'expiresAt' });
}
