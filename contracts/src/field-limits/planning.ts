// Field limits of planning (tasks, dependencies, the work calendar, templates, geocoding), served
// by services/projects. The day counts bound the work one schedule can ask for, so they are limits,
// not calendar rules. How the limits are read and re-checked: ./index.ts.
import { ID_REF_MAX } from './shared.ts';

/** Tasks (POST /tasks): maximum characters per field; title after trimming. */
export const TASK_FIELD_LIMITS = {
  title: 200,
  projectId: ID_REF_MAX,
  notes: 5000,
  replacesTemplateTask: ID_REF_MAX,
} as const;

/** A task's predecessors (POST /tasks and template tasks). */
export const TASK_PREDECESSORS_MAX = 50;

/** The most working days a task lasts, and the largest lag (or lead) of a dependency. */
export const TASK_DAYS_MAX = 1000;

/** A dependency's predecessor: a template task id or a work task networkId. */
export const DEPENDENCY_FIELD_LIMITS = { taskId: ID_REF_MAX } as const;

/** The work calendar (PUT /planning-settings): the time zone's name, and how many holidays. */
export const CALENDAR_LIMITS = {
  timeZone: 100,
  /** Enough for decades of public holidays; bounds the work a calendar can ask for. */
  holidays: 2000,
} as const;

/** GET /templates?vertical=: a vertical slug is at most 40 characters. */
export const TEMPLATE_VERTICAL_MAX = 40;

/** GET /geocode: the search text, and how many places one answer lists. */
export const GEOCODE_LIMITS = { q: 200, results: 20 } as const;
