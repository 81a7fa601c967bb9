import { type RequestContext, AppError } from '@fieldops/kit';
import type { runLeases } from '@fieldops/proto';
import type { RunLeases } from '../worker/run-leases.port.ts';
import { claimToWire, heldFromWire, heldToWire, resultFromWire } from '../worker/run-leases.wire.ts';

const MAX_LEASE_MS = 60 * 60_000;
const MAX_LIST = 1000;

export async function trackRun(
  leases: RunLeases,
  request: runLeases.TrackRunRequest,
  ctx: RequestContext,
): Promise<runLeases.TrackRunResult> {
  await leases.track(workerTenant(ctx), request.runId);
  return {};
}

export async function listActiveRuns(
  leases: RunLeases,
  request: runLeases.ListActiveRunsRequest,
  ctx: RequestContext,
): Promise<runLeases.ActiveRunList> {
  workerTenant(ctx);
  const limit = Math.min(Math.max(Math.floor(request.limit), 1), MAX_LIST);
  return { items: await leases.listActive(limit) };
}

export async function claimRun(
  leases: RunLeases,
  request: runLeases.ClaimRunRequest,
  ctx: RequestContext,
): Promise<runLeases.ClaimRunResult> {
  const tenantId = workerTenant(ctx);
  return claimToWire(await leases.claim(tenantId, request.runId, request.owner, leaseMs(request.leaseMs)));
}

export async function renewLease(
  leases: RunLeases,
  request: runLeases.RenewLeaseRequest,
  ctx: RequestContext,
): Promise<runLeases.LeaseResult> {
  const held = heldFromWire(workerTenant(ctx), request.held);
  const next = await leases.renew(held, leaseMs(request.leaseMs), request.progress);
  return next ? { held: true, next: heldToWire(next) } : { held: false };
}

export async function completeRun(
  leases: RunLeases,
  request: runLeases.CompleteRunRequest,
  ctx: RequestContext,
): Promise<runLeases.LeaseResult> {
  const held = heldFromWire(workerTenant(ctx), request.held);
  return { held: await leases.complete(held, resultFromWire(request)) };
}

export async function failRun(
  leases: RunLeases,
  request: runLeases.FailRunRequest,
  ctx: RequestContext,
): Promise<runLeases.LeaseResult> {
  return { held: await leases.fail(heldFromWire(workerTenant(ctx), request.held), request.error) };
}

export async function releaseRun(
  leases: RunLeases,
  request: runLeases.ReleaseRunRequest,
  ctx: RequestContext,
): Promise<runLeases.LeaseResult> {
  const held = heldFromWire(workerTenant(ctx), request.held);
  return { held: await (request.handBack ? leases.handBack(held) : leases.release(held)) };
}

/** The tenant the worker acts in; refuses any caller that is not a platform service. */
function workerTenant(ctx: RequestContext): string {
  if (ctx.principal?.kind !== 'system') {
    throw new AppError('role_denied', "Only the platform's reconstruction workers hold run leases.");
  }
  const tenantId = ctx.tenant?.id;
  if (!tenantId) throw new AppError('internal', 'The request reached the service without a tenant.');
  return tenantId;
}

function leaseMs(value: number): number {
  if (!(value >= 1 && value <= MAX_LEASE_MS)) {
    throw new AppError('field_invalid', `lease_ms is 1 to ${MAX_LEASE_MS}.`, { field: 'lease_ms' });
  }
  return value;
}
