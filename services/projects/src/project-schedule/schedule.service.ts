// GET /projects/:id/schedule: the critical-path plan of the project's network, from `start`, on
// the tenant's work calendar. The start is echoed exactly as sent.
import type { RequestContext } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { requireTenantId } from '@fieldops/kit/write';
import type { planning } from '@fieldops/proto';
import { loadPlanningSettings } from '../permits/planning-settings.ts';
import { loadProject } from '../projects/projects.service.ts';
import { todayAt } from '../schedule/calendar-date.ts';
import { loadProjectNetwork, networkOf } from '../tasks/project-network.ts';
import { computeSchedule } from '../schedule/schedule.ts';
import { parseScheduleStart } from '../schedule/schedule-start.ts';
import { WorkCalendar } from '../schedule/work-calendar.ts';

export async function getSchedule(
  store: DocumentStore,
  req: planning.GetScheduleRequest,
  ctx: RequestContext,
): Promise<planning.ScheduleReply> {
  const tenantId = requireTenantId(ctx);
  const project = await loadProject(store, tenantId, req.projectId);
  const [loaded, settings] = await Promise.all([
    loadProjectNetwork(store, tenantId, project),
    loadPlanningSettings(store, tenantId),
  ]);
  // Without a start the plan begins today on the site's calendar.
  const start = req.start ? parseScheduleStart(req.start) : todayAt(settings.calendar.timeZone);
  const plan = computeSchedule(networkOf(loaded), new WorkCalendar(settings.calendar), start);
  return {
    projectId: project.id,
    start,
    firstWorkingDay: plan.firstWorkingDay,
    finish: plan.finish,
    durationDays: plan.durationDays,
    templateId: loaded.template.id,
    templateVersion: loaded.template.version,
    calendar: settings.calendar,
    tasks: plan.tasks,
    criticalPath: plan.criticalPath,
    criticalPaths: plan.criticalPaths.map((taskIds) => ({ taskIds })),
    criticalPathsTruncated: plan.criticalPathsTruncated,
  };
}
