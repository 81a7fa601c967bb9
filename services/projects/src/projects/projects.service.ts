import { itemJson, listRpcOf, getOrNotFound } from '@fieldops/kit/domain';
import type { RequestContext } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { requireTenantId, runWrite, writeRpcOf } from '@fieldops/kit/write';
import { projects } from '@fieldops/proto';
import { PROJECTS } from '../collections.ts';
import type { CrmPort } from '../crm/crm.port.ts';
import { planReportContent } from './project-content.plan.ts';
import { planCreateProject, type CreatedProject } from './project-create.plan.ts';
import { projectFilter } from './project-filter.ts';
import { planLifecycleTrigger } from './project-lifecycle.plan.ts';
import { planUpdateProject } from './project-update.plan.ts';
import type { ProjectDoc } from './project.model.ts';
import { toProjectSummary, toProjectView } from './project.view.ts';

/** A project summary in items_json; one function for the process, so the store remembers its renderings. */
const PROJECT_JSON = itemJson(toProjectSummary, projects.ProjectSummary);

/** Most recently updated first; keyset paging. */
export const listProjects = listRpcOf(
  PROJECTS,
  { filter: projectFilter, sort: { field: 'updatedAt', direction: 'desc' } },
  toProjectSummary,
  PROJECT_JSON,
);

/** Scenes and deliverable manifests are capture's: the gateway adds them to this read (project-scenes.ts). */
export async function getProject(
  store: DocumentStore,
  req: projects.GetProjectRequest,
  ctx: RequestContext,
): Promise<projects.ProjectDetail> {
  const doc = await loadProject(store, requireTenantId(ctx), req.id);
  return { project: toProjectView(doc), scenes: [], deliverables: [] };
}

export async function loadProject(store: DocumentStore, tenantId: string, id: string): Promise<ProjectDoc> {
  const doc = await getOrNotFound<ProjectDoc>(store, PROJECTS, tenantId, id, 'project');
  return doc;
}

export async function createProject(
  store: DocumentStore,
  crm: CrmPort,
  req: projects.CreateProjectRequest,
  ctx: RequestContext,
): Promise<projects.ProjectCreation> {
  const tenantId = requireTenantId(ctx);
  // A plan re-run (a racing write moved the state) must not open a second deal.
  let deal: Promise<projects.LinkedDeal> | undefined;
  const openDeal = () => (deal ??= crm.openDeal(req.customerId.trim(), ctx));
  const { result, meta } = await runWrite<CreatedProject>(store, ctx, {
    operation: 'createProject',
    fingerprint: req,
    plan: () => planCreateProject(crm, openDeal, tenantId, req, ctx),
  });
  return { ...result, meta };
}

export const updateProject = writeRpcOf('updateProject', 'project', planUpdateProject);

export const fireLifecycleTrigger = writeRpcOf('fireLifecycleTrigger', 'project', planLifecycleTrigger);

export const reportProjectContent = writeRpcOf('reportProjectContent', 'project', planReportContent);
