import { type RequestContext, AppError } from '@fieldops/kit';
import type { LinkKeyring } from './link-keys.ts';
import { verifyLink, type LinkClaims, type LinkKind } from './link-token.ts';

const deadLink = (): AppError =>
  new AppError(
    'not_found',
    'This link is not valid, or no longer is; ask the business that sent it for a new one.',
  );

export function claimsOf(keys: LinkKeyring, token: string, kind: LinkKind): LinkClaims {
  const check = verifyLink(keys.all, token, Date.now());
  if (!check.ok) {
    if (check.reason === 'expired') {
      throw new AppError('not_found', 'This link has expired; ask the business that sent it for a new one.');
    }
    throw deadLink();
  }
  if (check.claims.kind !== kind) throw deadLink();
  return check.claims;
}

/** The document's stored nonce must be the link's: a newer link or a withdrawal retires old ones. */
export function assertCurrentLink(claims: LinkClaims, doc: { linkNonce?: string } | null): void {
  if (!doc || doc.linkNonce !== claims.nonce) throw deadLink();
}

/**
 * The context of the customer's act. The principal is the link (kind customer_link), which is what
 * the audit trail shows as the actor; the gateway's request id and agent headers are kept.
 */
export function clientContext(ctx: RequestContext, claims: LinkClaims, operation: string): RequestContext {
  return {
    ...ctx,
    tenant: { id: claims.tenantId, currency: '', defaultVertical: '' },
    principal: {
      kind: 'customer_link',
      tokenId: `link:${claims.kind}:${claims.id}`,
      role: 'customer',
      memberId: '',
    },
    idempotencyKey: '',
    dryRun: false,
    operation,
  };
}
