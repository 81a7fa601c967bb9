// Why: most write RPCs of every service are the same three steps: the caller's tenant, one keyed
// write planned for that tenant, and the answer `{<resource>: result, meta}`. This is that RPC once:
// `writeRpc` runs it, and `writeRpcOf` / `outcomeWriteRpcOf` declare a whole RPC from its operation
// id and plan, so a service writes `export const createLead = writeRpcOf('createLead', 'lead', ...)`.
import type { RequestContext } from '../context.ts';
import type { DocumentStore } from '../store/port.ts';
import { runWrite, type WriteOutcome, type WritePlan } from './keyed-write.ts';
import { requireTenantId } from './tenant.ts';

export interface TenantWriteSpec<R> {
  /** Registry operation id (createLead ...), as runWrite takes it. */
  operation: string;
  /** The request as sent; only its hash is stored. */
  fingerprint: unknown;
  /** Reads the tenant's current state and returns the plan; re-run when the state moved under it. */
  plan: (tenantId: string) => Promise<WritePlan<R>>;
}

/** The write RPC's answer: the result under the resource's name, and the write's meta. */
export type WriteAnswer<K extends string, R> = { [P in K]: R } & Pick<WriteOutcome<R>, 'meta'>;

/** Runs one keyed write for the caller's tenant and answers `{[as]: result, meta}`. */
export async function writeRpc<K extends string, R>(
  store: DocumentStore,
  ctx: RequestContext,
  as: K,
  spec: TenantWriteSpec<R>,
): Promise<WriteAnswer<K, R>> {
  const { result, meta } = await tenantWrite(store, ctx, spec);
  return { [as]: result, meta } as WriteAnswer<K, R>;
}

/** What a service's RPCs take first: its store, or its deps object holding the store as `store`. */
export type WriteDeps = DocumentStore | { readonly store: DocumentStore };

/** A write RPC as a service's handler table calls it. */
export type WriteRpc<D, Req, Res> = (deps: D, req: Req, ctx: RequestContext) => Promise<Res>;

/** A plan function of the service's write: the deps, the caller's tenant, the request as sent. */
export type TenantPlan<D, Req, R> = (
  deps: D,
  tenantId: string,
  req: Req,
  ctx: RequestContext,
) => Promise<WritePlan<R>>;

/** The RPC `operation` whose write `plan` plans; it answers `{[as]: result, meta}`. */
export function writeRpcOf<D extends WriteDeps, Req, K extends string, R>(
  operation: string,
  as: K,
  plan: TenantPlan<D, Req, R>,
): WriteRpc<D, Req, WriteAnswer<K, R>> {
  return async (deps, req, ctx) => {
    const { result, meta } = await planned(operation, plan, deps, req, ctx);
    return { [as]: result, meta } as WriteAnswer<K, R>;
  };
}

/**
 * The RPC `operation` whose plan's result already holds the answer's fields (`{invoice, dealMove}`,
 * `{subscription, secret}`); it answers them with the write's meta.
 */
export function outcomeWriteRpcOf<D extends WriteDeps, Req, R extends object>(
  operation: string,
  plan: TenantPlan<D, Req, R>,
): WriteRpc<D, Req, R & Pick<WriteOutcome<R>, 'meta'>> {
  return async (deps, req, ctx) => {
    const { result, meta } = await planned(operation, plan, deps, req, ctx);
    return { ...result, meta };
  };
}

/** How a project-scoped write asks whether the caller may see a project (not_found when not). */
export interface ProjectGate {
  requireProject(projectId: string, ctx: RequestContext): Promise<void>;
}

/**
 * The RPC `operation` on the caller's project `req.projectId`: the deps' projects port is asked
 * first whether the caller may see it, then the write `plan` plans runs, answering as writeRpcOf's.
 */
export function projectWriteRpcOf<
  D extends { readonly store: DocumentStore; readonly projects: ProjectGate },
  Req extends { projectId: string },
  K extends string,
  R,
>(operation: string, as: K, plan: TenantPlan<D, Req, R>): WriteRpc<D, Req, WriteAnswer<K, R>> {
  const write = writeRpcOf(operation, as, plan);
  return async (deps, req, ctx) => {
    await deps.projects.requireProject(req.projectId, ctx);
    return write(deps, req, ctx);
  };
}

/** For a plan that reads the tenant from `ctx` itself (one it shares with a caller of its own). */
export function withContextTenant<D, Req, R>(
  plan: (deps: D, req: Req, ctx: RequestContext) => Promise<WritePlan<R>>,
): TenantPlan<D, Req, R> {
  return (deps, _tenantId, req, ctx) => plan(deps, req, ctx);
}

/** For a plan that takes one more argument after ctx (the kinds it may create, the action it takes). */
export function withPlanArg<D, Req, R, A>(
  plan: (deps: D, tenantId: string, req: Req, ctx: RequestContext, arg: A) => Promise<WritePlan<R>>,
  arg: A,
): TenantPlan<D, Req, R> {
  return (deps, tenantId, req, ctx) => plan(deps, tenantId, req, ctx, arg);
}

function planned<D extends WriteDeps, Req, R>(
  operation: string,
  plan: TenantPlan<D, Req, R>,
  deps: D,
  req: Req,
  ctx: RequestContext,
): Promise<WriteOutcome<R>> {
  return tenantWrite(storeOf(deps), ctx, {
    operation,
    fingerprint: req,
    plan: (tenantId) => plan(deps, tenantId, req, ctx),
  });
}

function tenantWrite<R>(store: DocumentStore, ctx: RequestContext, spec: TenantWriteSpec<R>) {
  const tenantId = requireTenantId(ctx);
  return runWrite(store, ctx, { ...spec, plan: () => spec.plan(tenantId) });
}

/** The store of a service's RPC deps: a store commits; a deps object holds the store that does. */
export const storeOf = (deps: WriteDeps): DocumentStore => ('commit' in deps ? deps : deps.store);
