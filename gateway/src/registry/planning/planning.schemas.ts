// Planning around projects (spec: Schedule, Compliance, Permit metadata; open items 5–7: tasks,
// the day view, templates and geocoding). Served by projects.PlanningService. Also the tenant's
// planning settings (permit defaults and the work calendar), which the spec calls tenant defaults.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import {
  CALENDAR_LIMITS,
  DEPENDENCY_FIELD_LIMITS,
  DEPENDENCY_TYPES,
  PERMIT_KEYS,
  splitPermitInput,
  TASK_DAYS_MAX,
} from '@fieldops/contracts';
import { AppError } from '@fieldops/kit';
import { z } from 'zod';
import type { Caller } from '../../identity/model.ts';
import {
  permitSchema,
  scheduledTaskFields,
  scheduleFields,
  settingsSchema,
  taskFields,
  templateFields,
  templateTaskFields,
} from './planning.gen.ts';

/** A project-restricted token's projects: lists leave the others out, writes treat them as absent. */
export const scopeOf = (caller: Caller | null) =>
  caller?.projectIds ? { ids: caller.projectIds } : undefined;

export const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** The offline gazetteer loads on first use (a few seconds); calls that may geocode wait that long. */
export const GEOCODING_DEADLINE = { timeoutMs: 20_000 };
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]/i;

/** A calendar date; a date-time is refused with a sentence saying what to send. */
export const calendarDate = (what: string) =>
  z
    .string()
    .superRefine((text, ctx) => {
      if (DATE.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))) return;
      const message = DATE_TIME.test(text)
        ? `must be a date such as ${text.slice(0, 10)}, not a date-time`
        : 'must be a date in the form YYYY-MM-DD, such as 2025-03-14';
      ctx.addIssue({ code: 'custom', message });
    })
    .describe(what);

export const dependency = z.strictObject({
  taskId: z
    .string()
    .min(1)
    .max(DEPENDENCY_FIELD_LIMITS.taskId)
    .describe('The predecessor: a template task id or a work task networkId.'),
  type: z
    .enum(DEPENDENCY_TYPES)
    .default('FS')
    .describe('finish-to-start (default), start-to-start, finish-to-finish, start-to-finish'),
  lagDays: z
    .number()
    .int()
    .min(-TASK_DAYS_MAX)
    .max(TASK_DAYS_MAX)
    .default(0)
    .describe('Working days after the predecessor event; negative is a lead.'),
});

/** Derived from planning.proto; the predecessors are the request's dependency shape, in their place. */
export const scheduledTask = scheduledTaskFields
  .extend({ predecessors: z.array(dependency) })
  .meta({ id: 'ScheduledTask' });

/** Derived from planning.proto; the tasks above and each critical chain as a plain list of task ids, in their place. */
export const scheduleSchema = scheduleFields
  .extend({ tasks: z.array(scheduledTask), criticalPaths: z.array(z.array(z.string())) })
  .meta({ id: 'Schedule' });

// The compliance report is derived from planning.proto (npm run gen).
export { citation, complianceSchema } from './planning.gen.ts';

export const permitValues = z.record(z.string(), z.string());
// The permit is derived from planning.proto (npm run gen).
export { permitSchema };

export const permitBodyDescription = `Sparse permit metadata: ${Object.keys(PERMIT_KEYS).join(', ')}. Text sets a key, null clears it; unknown keys are dropped.`;
export const permitBody = z.looseObject(
  Object.fromEntries(
    Object.entries(PERMIT_KEYS).map(([key, description]) => [
      key,
      // Validated as text or null by splitPermitInput (a bad value is invalid_body); typed here
      // for the document and the tools.
      z
        .unknown()
        .optional()
        .describe(`${description} Text, or null.`)
        .meta({ type: ['string', 'null'] }),
    ]),
  ),
);

/** Known keys as entries (null clears); unknown keys named back as dropped; a bad value is invalid_body. */
export function permitEntries(body: Record<string, unknown>) {
  const input = splitPermitInput(body);
  if (input.problems.length) throw new AppError('invalid_body', `${input.problems.join('; ')}.`);
  return {
    entries: input.entries.map(({ key, value }) => (value === null ? { key } : { key, value })),
    droppedKeys: input.dropped,
  };
}

export const calendarInput = z.strictObject({
  timeZone: z
    .string()
    .min(1)
    .max(CALENDAR_LIMITS.timeZone)
    .optional()
    .describe('IANA time zone of the sites, such as America/Denver.'),
  workingDays: z
    .array(z.enum(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']))
    .min(1)
    // The seven days of a week: what a week is, not a limit.
    .max(7)
    .optional(),
  holidays: z.array(calendarDate('A day nobody works.')).max(CALENDAR_LIMITS.holidays).optional(),
});

// The planning settings are derived from planning.proto (npm run gen).
export { settingsSchema };

/** Derived from planning.proto; the predecessors are the request's dependency shape, in their place. */
export const taskSchema = taskFields.extend({ predecessors: z.array(dependency) }).meta({ id: 'Task' });

/** Derived from planning.proto; each task's predecessors are the request's dependency shape, in their place. */
export const templateSchema = templateFields
  .extend({ tasks: z.array(templateTaskFields.extend({ predecessors: z.array(dependency) })) })
  .meta({ id: 'TaskTemplate' });

// The day view (its visits) and the geocoder's answer (its places) are derived from planning.proto
// (npm run gen).
export { dayView, geocodeReply, placeSchema, visitSchema } from './planning.gen.ts';
