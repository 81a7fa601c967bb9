// How many active API tokens a member and a tenant may hold (docs/security.md, "Budgets and
// tokens"). Budgets and rate buckets are counted per token, as the spec says, so without a cap a
// member could mint tokens until the hourly limits on consequences were as large as they liked.
import { AppError, nowIso } from '@fieldops/kit';
import type { Filter } from '@fieldops/kit/store';

export interface TokenCaps {
  perMember: number;
  perTenant: number;
}

/** The defaults of FIELDOPS_TOKENS_PER_MEMBER and FIELDOPS_TOKENS_PER_TENANT (services/kit/src/config.ts). */
export const DEFAULT_TOKEN_CAPS: TokenCaps = { perMember: 10, perTenant: 200 };

/** Active: neither revoked nor past its expiry. A revoked or expired token frees its place. */
export function activeTokens(where: Filter, now = nowIso()): Filter {
  return {
    ...where,
    revokedAt: { $exists: false },
    $or: [{ expiresAt: { $exists: false } }, { expiresAt: { $gt: now } }],
  };
}

/** 409 conflict: the state of the tenant, not the request, is what stands in the way. */
export function checkTokenCap(held: number, cap: number, holder: string): void {
  if (held < cap) return;
  throw new AppError(
    'conflict',
    `${holder} already holds ${held} active API tokens, the cap of ${cap}; revoke one that is no longer used before issuing another.`,
    { limit: cap, active: held },
  );
}
