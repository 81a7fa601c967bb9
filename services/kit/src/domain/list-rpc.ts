// Why: most List RPCs of every service are the same three steps: the caller's tenant, the list's
// filter from the request (which may refuse it, or first check that the parent the path names
// exists), and one page of one collection in one order through listPage. This is that RPC once,
// as writeRpcOf is the write RPC's: `export const listLeads = listRpcOf(LEADS, {filter, sort}, view)`.
import type { common } from '@fieldops/proto';
import type { RequestContext } from '../context.ts';
import type { Doc, Filter, Sort } from '../store/port.ts';
import { storeOf, type WriteDeps } from '../write/write-rpc.ts';
import { requireTenantId } from '../write/tenant.ts';
import { listPage } from './paging.ts';

/** What a List RPC reads: the request's filter (none lists the whole collection), and its order. */
export interface ListQuery<D, Req> {
  /**
   * Made after the tenant is known. It may throw the caller's 400, or read `deps` to check the
   * parent the request names first (a missing one is its 404).
   */
  filter?: (req: Req, ctx: RequestContext, deps: D, tenantId: string) => Filter | Promise<Filter>;
  sort: Sort;
}

/** The order most lists are read in: newest first (the store breaks createdAt ties by id). */
export const NEWEST_FIRST: Sort = { field: 'createdAt', direction: 'desc' };

/** A List RPC's answer: one page of items (or their JSON), and the cursor of the next. */
export interface ListAnswer<V> {
  items: V[];
  nextCursor: string;
  itemsJson?: Buffer;
}

/** The List RPC over `collection`, each item shown through `view` (and `json`, its itemJson). */
export function listRpcOf<
  D extends WriteDeps,
  Req extends { page?: common.PageRequest | undefined },
  T extends Doc,
  V,
>(
  collection: string,
  query: ListQuery<D, Req>,
  view: (doc: T) => V,
  json?: (doc: T) => string,
): (deps: D, req: Req, ctx: RequestContext) => Promise<ListAnswer<V>> {
  return async (deps, req, ctx) => {
    const tenantId = requireTenantId(ctx);
    const filter = query.filter ? await query.filter(req, ctx, deps, tenantId) : undefined;
    const read = filter ? { filter, sort: query.sort } : { sort: query.sort };
    return listPage(storeOf(deps), collection, tenantId, req.page, read, view, json);
  };
}
