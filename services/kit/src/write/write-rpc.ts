// Why: most write RPCs of every service are the same three steps: the caller's tenant, one keyed
// write planned for that tenant, and the answer `{<resource>: result, meta}`. This is that RPC once.
import type { RequestContext } from '../context.js';
import type { DocumentStore } from '../store/port.js';
import { runWrite, type WriteOutcome, type WritePlan } from './keyed-write.js';
import { requireTenantId } from './tenant.js';

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
  const tenantId = requireTenantId(ctx);
  const { result, meta } = await runWrite(store, ctx, { ...spec, plan: () => spec.plan(tenantId) });
  return { [as]: result, meta } as WriteAnswer<K, R>;
}
