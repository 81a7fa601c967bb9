// Planning around projects (spec: Schedule, Compliance, Permit metadata; open items 5–7: tasks,
// the day view, templates and geocoding). Served by projects.PlanningService. Also the tenant's
// planning settings (permit defaults and the work calendar), which the spec calls tenant defaults.
// Every endpoint of the group, in registry order: one file per path, named after it.
import { getProjectSchedule } from './projects.id.schedule.js';
import { getProjectCompliance } from './projects.id.compliance.js';
import { getProjectPermit, setProjectPermit } from './projects.id.permit.js';
import { getPlanningSettings, setPlanningSettings } from './settings.planning.js';
import { listTasks, createTask } from './tasks.js';
import { getDay } from './day.js';
import { listTemplates } from './templates.js';
import { getTemplate } from './templates.id.js';
import { geocode } from './geocode.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const planningEndpoints: EndpointDef[] = [
  getProjectSchedule,
  getProjectCompliance,
  getProjectPermit,
  setProjectPermit,
  getPlanningSettings,
  setPlanningSettings,
  listTasks,
  createTask,
  getDay,
  listTemplates,
  getTemplate,
  geocode,
];
