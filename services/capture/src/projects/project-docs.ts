// Why: every read of one capture record (session, design, scene, artifact, run) and every list of
// a project's records (designs, scenes) first asks projects whether the caller may see the
// project, then reads that project's records only (a write does so through projectWriteRpcOf).
import type { RequestContext } from '@fieldops/kit';
import { getOfProject, listPage, NEWEST_FIRST, type ListAnswer } from '@fieldops/kit/domain';
import type { common } from '@fieldops/proto';
import type { Doc } from '@fieldops/kit/store';
import { requireTenantId } from '@fieldops/kit/write';
import type { CaptureDeps } from '../deps.ts';

/** The record `ref.id` of `collection` in the caller's project `ref.projectId`; else not_found. */
export async function loadOfProject<T extends Doc & { projectId: string }>(
  deps: CaptureDeps,
  ctx: RequestContext,
  collection: string,
  ref: { projectId: string; id: string },
  what: string,
): Promise<T> {
  await deps.projects.requireProject(ref.projectId, ctx);
  return getOfProject<T>(deps.store, collection, requireTenantId(ctx), ref, what);
}

/** A page of `collection`'s records of the caller's project `req.projectId`, newest first. */
export async function listOfProject<T extends Doc & { projectId: string }, V>(
  deps: CaptureDeps,
  ctx: RequestContext,
  collection: string,
  req: { projectId: string; page?: common.PageRequest | undefined },
  view: (doc: T) => V,
): Promise<ListAnswer<V>> {
  await deps.projects.requireProject(req.projectId, ctx);
  return listPage(
    deps.store,
    collection,
    requireTenantId(ctx),
    req.page,
    { filter: { projectId: req.projectId }, sort: NEWEST_FIRST },
    view,
  );
}
