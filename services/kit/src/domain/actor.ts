import type { RequestContext } from '../context.ts';

/**
 * Who a change is attributed to in the activity trail: the member when the token is bound to
 * one (a person reads the trail), else the token, else the kind of principal (system work).
 */
export function actorOf(ctx: RequestContext): string {
  const principal = ctx.principal;
  return principal?.memberId || principal?.tokenId || principal?.kind || 'unknown';
}
