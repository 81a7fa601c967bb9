// GET /day: the visits of a date across the tenant (optionally one member's), each with its site,
// the age of its imagery, whether the roof is marked, the draft flight plan and its human review.
import type { RequestContext } from '@fieldops/kit';
import { compact } from '@fieldops/kit/domain';
import type { DocumentStore, Filter } from '@fieldops/kit/store';
import { requireTenantId } from '@fieldops/kit/write';
import type { planning } from '@fieldops/proto';
import { PROJECTS, SITES } from '../collections.ts';
import { SITE_PREPARATION, TASKS } from '../planning.collections.ts';
import type { ProjectDoc } from '../projects/project.model.ts';
import { toSiteView, type SiteDoc } from '../projects/site.model.ts';
import type { TaskDoc } from '../tasks/task.model.ts';
import type { SitePreparationDoc } from './site-preparation.ts';
import { imageryAgeDays, READINESS_NOTE, visitReadiness } from './visit-readiness.ts';

/** A day holds at most this many visits in the view (a crew's day is a handful). */
export const MAX_DAY_VISITS = 200;

export async function getDay(
  store: DocumentStore,
  req: planning.GetDayRequest,
  ctx: RequestContext,
): Promise<planning.DayView> {
  const tenantId = requireTenantId(ctx);
  const filter: Filter = { kind: 'visit', dueDate: req.date };
  if (req.memberId) filter['memberId'] = req.memberId;
  if (req.scope) filter['projectId'] = { $in: [...req.scope.ids] };
  const tasks = await store.find<TaskDoc>(TASKS, tenantId, filter, {
    sort: { field: 'createdAt', direction: 'asc' },
    limit: MAX_DAY_VISITS,
  });
  const visits = await Promise.all(tasks.map((task) => visitOf(store, tenantId, task, req.date)));
  return {
    date: req.date,
    visits: visits.filter((visit): visit is planning.Visit => visit !== null),
    note: READINESS_NOTE,
  };
}

async function visitOf(
  store: DocumentStore,
  tenantId: string,
  task: TaskDoc,
  date: string,
): Promise<planning.Visit | null> {
  const projectId = task.projectId as string;
  const project = await store.get<ProjectDoc>(PROJECTS, tenantId, projectId);
  if (!project) return null;
  const [site, prep] = await Promise.all([
    store.get<SiteDoc>(SITES, tenantId, project.siteId),
    store.get<SitePreparationDoc>(SITE_PREPARATION, tenantId, projectId),
  ]);
  const humanReviewed = Boolean(prep?.draftFlightPlanId && prep.flightPlanReviewedBy);
  return compact({
    taskId: task.id,
    title: task.title,
    memberId: task.memberId,
    projectId,
    projectName: project.name,
    projectStatus: project.status,
    vertical: project.vertical,
    site: site ? toSiteView(site) : undefined,
    imagery: prep?.imageryCapturedAt
      ? { capturedAt: prep.imageryCapturedAt, ageDays: imageryAgeDays(prep.imageryCapturedAt, date) }
      : undefined,
    roofMarked: prep?.roofMarked ?? false,
    draftFlightPlan: prep?.draftFlightPlanId
      ? compact({
          id: prep.draftFlightPlanId,
          humanReviewed,
          reviewedBy: prep.flightPlanReviewedBy,
          reviewedAt: prep.flightPlanReviewedAt,
        })
      : undefined,
    humanReviewed,
    readiness: visitReadiness(project.vertical, prep, date),
  });
}
