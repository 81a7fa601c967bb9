// Reading and verifying a tenant's audit trail. The tenant always comes from the request context
// the gateway built, never from the request message, so one tenant can never read or verify
// another's trail.
import type { audit } from '@fieldops/proto';
import { type RequestContext, AppError } from '@fieldops/kit';
import type { Ledger } from './ledger.ts';

function tenantOf(ctx: RequestContext): string {
  const tenantId = ctx.tenant?.id;
  // A call without a tenant is a fault in the caller's plumbing, not something a client can fix.
  if (!tenantId) throw new AppError('internal', 'The audit service was called without a tenant.');
  return tenantId;
}

export async function listEntries(
  ledger: Ledger,
  req: audit.ListEntriesRequest,
  ctx: RequestContext,
): Promise<audit.EntryPage> {
  const page = await ledger.list(tenantOf(ctx), {
    cursor: req.page?.cursor || undefined,
    limit: req.page?.limit || undefined,
    resourceId: req.resourceId || undefined,
    tokenId: req.tokenId || undefined,
    action: req.action || undefined,
    runId: req.runId || undefined,
    projectIds: req.scope?.projectIds,
    asJson: req.page?.itemsAsJson,
  });
  return { items: page.items, nextCursor: page.nextCursor ?? '', itemsJson: page.itemsJson };
}

export async function verify(
  ledger: Ledger,
  req: audit.VerifyRequest,
  ctx: RequestContext,
): Promise<audit.VerifyResult> {
  const result = await ledger.verify(tenantOf(ctx), req.entryId || undefined, req.scope?.projectIds);
  return {
    valid: result.valid,
    length: result.length,
    headHash: result.headHash,
    headSeq: result.headSeq,
    brokenAtSeq: result.brokenAtSeq,
    problem: result.problem,
    proof: result.proof,
    genesisHash: result.genesisHash,
  };
}
