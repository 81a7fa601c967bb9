import { AppError } from '../errors.ts';
import type { RequestContext } from '../context.ts';

/**
 * The tenant every store call is scoped to. The gateway always sets it; a context without one
 * is a fault of ours, so it is refused rather than defaulted (a default tenant would leak data).
 */
export function requireTenantId(ctx: RequestContext): string {
  const tenantId = ctx.tenant?.id;
  if (!tenantId) throw new AppError('internal', 'The request reached the service without a tenant.');
  return tenantId;
}

/**
 * The member the caller's token is bound to, for records that belong to a person (`what`: "Tasks",
 * "Saved reports"); a token bound to none is 409 principal_unbound.
 */
export function requireMemberId(ctx: RequestContext, what: string): string {
  const memberId = ctx.principal?.memberId;
  if (!memberId) {
    throw new AppError(
      'principal_unbound',
      `${what} belong to a member, and this token is bound to none. Use a token bound to a member (issued with memberId).`,
    );
  }
  return memberId;
}
