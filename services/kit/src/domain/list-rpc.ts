// Why: most List RPCs of every service are the same three steps: the caller's tenant, the list's
// filter from the request (which may refuse it, or first check that the parent the path names
// exists), and one page of one collection in one order through listPage. This is that RPC once,
// as writeRpcOf is the write RPC's: `export const listLeads = listRpcOf({collection: LEADS, ...})`.
import type { common } from '@fieldops/proto';
import type { RequestContext } from '../context.ts';
import type { Doc, Filter, Sort } from '../store/port.ts';
import { storeOf, type WriteDeps } from '../write/write-rpc.ts';
import { requireTenantId } from '../write/tenant.ts';
import { listPage } from './paging.ts';

/** What a List RPC declares: the collection, its filter and order, and how an item is shown. */
export interface ListRpcSpec<D, Req, T extends Doc, V> {
  collection: string;
  /**
   * The request's filter, made after the tenant is known; none lists the whole collection. It may
   * throw the caller's 400, or read `deps` to check the parent first (a missing one is 404).
   */
  filter?: (req: Req, ctx: RequestContext, deps: D, tenantId: string) => Filter | Promise<Filter>;
  sort: Sort;
  view: (doc: T) => V;
  /** The list's itemJson, when it answers itemsAsJson. */
  json?: (doc: T) => string;
}

/** A List RPC's answer: one page of items (or their JSON), and the cursor of the next. */
export interface ListAnswer<V> {
  items: V[];
  nextCursor: string;
  itemsJson?: Buffer;
}

/** The List RPC over `spec.collection`, as a service's handler table calls it. */
export function listRpcOf<
  D extends WriteDeps,
  Req extends { page?: common.PageRequest | undefined },
  T extends Doc,
  V,
>(spec: ListRpcSpec<D, Req, T, V>): (deps: D, req: Req, ctx: RequestContext) => Promise<ListAnswer<V>> {
  return async (deps, req, ctx) => {
    const tenantId = requireTenantId(ctx);
    const filter = spec.filter ? await spec.filter(req, ctx, deps, tenantId) : undefined;
    const query = filter ? { filter, sort: spec.sort } : { sort: spec.sort };
    return listPage(storeOf(deps), spec.collection, tenantId, req.page, query, spec.view, spec.json);
  };
}
