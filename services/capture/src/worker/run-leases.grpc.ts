// The RunLeases port over gRPC: capture's RunLeaseService, for worker processes that hold no
// store. Only transport: capture applies the lease rules (runs/run-leases.local.ts). A call that
// fails in transport rejects with the AppError (unavailable); the worker keeps its hold and
// retries, and a lost lease is an answer (held = false), never an error.
import { systemContext, type RequestContext } from '@fieldops/kit';
import { callUnary, connectClient } from '@fieldops/kit/grpc';
import { PLATFORM_TENANT } from '@fieldops/kit/store';
import { runLeases } from '@fieldops/proto';
import type { HeldRun, RunLeases } from './run-leases.port.ts';
import { claimFromWire, heldFromWire, heldToWire, resultToWire } from './run-leases.wire.ts';

export interface GrpcRunLeases extends RunLeases {
  close(): void;
}

/** The context of a call for a run: its tenant, a system principal, the run id to trace it by. */
const leaseContext = (tenantId: string, runId: string, operation: string): RequestContext =>
  systemContext({ id: tenantId, currency: '', defaultVertical: '' }, operation, `worker_${runId}`);

export function connectGrpcRunLeases(address: string): GrpcRunLeases {
  const client = connectClient(runLeases.RunLeaseServiceClient, address);
  const heldCtx = (held: HeldRun, operation: string) => leaseContext(held.tenantId, held.runId, operation);
  return {
    async track(tenantId, runId) {
      await callUnary(client, 'trackRun', { runId }, leaseContext(tenantId, runId, 'trackRun'));
    },
    async listActive(limit) {
      const ctx = systemContext({ id: PLATFORM_TENANT, currency: '', defaultVertical: '' }, 'listActiveRuns');
      return (await callUnary(client, 'listActiveRuns', { limit }, ctx)).items;
    },
    async claim(tenantId, runId, owner, leaseMs) {
      const ctx = leaseContext(tenantId, runId, 'claimRun');
      return claimFromWire(tenantId, await callUnary(client, 'claimRun', { runId, owner, leaseMs }, ctx));
    },
    async renew(held, leaseMs, progress) {
      const request = { held: heldToWire(held), leaseMs, ...(progress ? { progress } : {}) };
      const answer = await callUnary(client, 'renewLease', request, heldCtx(held, 'renewLease'));
      return answer.held ? heldFromWire(held.tenantId, answer.next) : null;
    },
    async complete(held, result) {
      const request = resultToWire(held, result);
      return (await callUnary(client, 'completeRun', request, heldCtx(held, 'completeRun'))).held;
    },
    async fail(held, error) {
      const request = { held: heldToWire(held), error };
      return (await callUnary(client, 'failRun', request, heldCtx(held, 'failRun'))).held;
    },
    async release(held) {
      const request = { held: heldToWire(held), handBack: false };
      return (await callUnary(client, 'releaseRun', request, heldCtx(held, 'releaseRun'))).held;
    },
    async handBack(held) {
      const request = { held: heldToWire(held), handBack: true };
      return (await callUnary(client, 'releaseRun', request, heldCtx(held, 'releaseRun'))).held;
    },
    close: () => client.close(),
  };
}
