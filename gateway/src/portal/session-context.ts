// The request context of a portal call: the signed-in member's tenant and role, no key, no dry
// run. Portal routes call the services with it as /api/v1 handlers do with a token's context.
import type { RequestContext } from '@fieldops/kit';
import type { Response } from 'express';
import type { Caller } from '../identity/model.ts';
import { requestIdOf } from '../identity/request-id.ts';

export function sessionContext(caller: Caller, res: Response, operation: string): RequestContext {
  return {
    requestId: requestIdOf(res) ?? '',
    tenant: {
      id: caller.tenant.id,
      currency: caller.tenant.currency,
      defaultVertical: caller.tenant.defaultVertical,
    },
    principal: {
      kind: caller.kind,
      tokenId: caller.tokenId,
      role: caller.role.name,
      memberId: caller.member?.id ?? '',
    },
    idempotencyKey: '',
    agent: { runId: '', task: '', model: '', confirmedBy: '' },
    dryRun: false,
    operation,
  };
}
