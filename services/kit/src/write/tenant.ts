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
