// Why: every read of one capture record (session, design, scene, artifact, run) first asks projects
// whether the caller may see the project, then reads the record of that project only.
import type { RequestContext } from '@fieldops/kit';
import { getOfProject } from '@fieldops/kit/domain';
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
