// The request context travels with every gRPC call (see grpc/metadata.ts) and into every event.
import type { common } from '@fieldops/proto';

export type RequestContext = common.RequestContext;
export type Principal = common.Principal;
export type AgentHeaders = common.AgentHeaders;

/** A context for work the platform starts itself (relays, workers, seeding), not a caller. */
export function systemContext(
  tenant: common.Tenant,
  operation: string,
  requestId = `sys_${Date.now()}`,
): RequestContext {
  return {
    requestId,
    tenant,
    principal: { kind: 'system', tokenId: '', role: '', memberId: '' },
    idempotencyKey: '',
    agent: { runId: '', task: '', model: '', confirmedBy: '' },
    dryRun: false,
    operation,
  };
}
