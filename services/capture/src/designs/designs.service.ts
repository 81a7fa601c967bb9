// Designs: create a draft, list and read them, seal one. Writes are planned (design-*.plan.ts)
// and applied through runWrite: exactly once by key, dry-runnable, atomic with their events.
import type { RequestContext } from '@fieldops/kit';
import { writeRpc } from '@fieldops/kit/write';
import type { capture } from '@fieldops/proto';
import { DESIGNS } from '../collections.ts';
import type { CaptureDeps } from '../deps.ts';
import { listOfProject, loadOfProject } from '../projects/project-docs.ts';
import { requiredId } from '../fields.ts';
import { planCreateDesign } from './design-create.plan.ts';
import { planSealDesign } from './design-seal.plan.ts';
import { toDesignView, type DesignDoc } from './design.model.ts';
import { reportProjectContent } from './project-content.ts';

/** One design of the project: a design of another project is as absent as a missing one. */
async function loadDesign(
  deps: CaptureDeps,
  ctx: RequestContext,
  ref: capture.DesignRef,
): Promise<DesignDoc> {
  return loadOfProject<DesignDoc>(
    deps,
    ctx,
    DESIGNS,
    { projectId: ref.projectId, id: ref.designId },
    'design',
  );
}

export async function createDesign(
  deps: CaptureDeps,
  req: capture.CreateDesignRequest,
  ctx: RequestContext,
): Promise<capture.DesignWrite> {
  const projectId = requiredId('id', req.projectId);
  await deps.projects.requireProject(projectId, ctx);
  const answer = await writeRpc(deps.store, ctx, 'design', {
    operation: 'createDesign',
    fingerprint: req,
    plan: () => planCreateDesign(deps, { ...req, projectId }, ctx),
  });
  // A replay reports too: a report that failed the first time is made by the retry.
  if (!answer.meta.rehearsal) await reportProjectContent(deps, projectId, ctx);
  return answer;
}

export async function sealDesign(
  deps: CaptureDeps,
  req: capture.SealDesignRequest,
  ctx: RequestContext,
): Promise<capture.DesignWrite> {
  await loadDesign(deps, ctx, req);
  const answer = await writeRpc(deps.store, ctx, 'design', {
    operation: 'sealDesign',
    fingerprint: req,
    plan: async () => planSealDesign(await loadDesign(deps, ctx, req), req, ctx),
  });
  if (!answer.meta.rehearsal) await reportProjectContent(deps, req.projectId, ctx);
  return answer;
}

export const getDesign = async (deps: CaptureDeps, req: capture.DesignRef, ctx: RequestContext) =>
  toDesignView(await loadDesign(deps, ctx, req));

export const listDesigns = (deps: CaptureDeps, req: capture.ListDesignsRequest, ctx: RequestContext) =>
  listOfProject(deps, ctx, DESIGNS, req, toDesignView);
