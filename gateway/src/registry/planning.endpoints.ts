// Planning around projects (spec: Schedule, Compliance, Permit metadata; open items 5–7: tasks,
// the day view, templates and geocoding). Served by projects.PlanningService. Also the tenant's
// planning settings (permit defaults and the work calendar), which the spec calls tenant defaults.
import { PERMIT_KEYS, splitPermitInput } from '@fieldops/contracts';
import { AppError } from '@fieldops/kit/errors';
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import {
  idParams,
  opIdField,
  pageBody,
  pageQuery,
  pageRequest,
  pageResponse,
  writeResponse,
} from './common.schemas.js';
import type { Caller } from '../identity/model.js';
import { defineEndpoint, type EndpointDef } from './types.js';
import { writeResult } from './write-result.js';

/** A project-restricted token's projects: lists leave the others out, writes treat them as absent. */
const scopeOf = (caller: Caller | null) => (caller?.projectIds ? { ids: caller.projectIds } : undefined);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** The offline gazetteer loads on first use (a few seconds); calls that may geocode wait that long. */
const GEOCODING_DEADLINE = { timeoutMs: 20_000 };
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]/i;

/** A calendar date; a date-time is refused with a sentence saying what to send. */
const calendarDate = (what: string) =>
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

const dependency = z.strictObject({
  taskId: z
    .string()
    .min(1)
    .max(100)
    .describe('The predecessor: a template task id or a work task networkId.'),
  type: z
    .enum(['FS', 'SS', 'FF', 'SF'])
    .default('FS')
    .describe('finish-to-start (default), start-to-start, finish-to-finish, start-to-finish'),
  lagDays: z
    .number()
    .int()
    .min(-1000)
    .max(1000)
    .default(0)
    .describe('Working days after the predecessor event; negative is a lead.'),
});

const scheduledTask = z.object({
  id: z.string(),
  name: z.string(),
  source: z.enum(['template', 'project']),
  durationDays: z.number().int(),
  milestone: z.boolean(),
  predecessors: z.array(dependency),
  earlyStart: z.string(),
  earlyFinish: z.string(),
  lateStart: z.string(),
  lateFinish: z.string(),
  totalFloat: z.number().int().describe('Working days the task can slip without moving the finish.'),
  freeFloat: z.number().int().describe('Working days the task can slip without moving any successor.'),
  critical: z.boolean(),
});

const scheduleSchema = z.object({
  projectId: z.string(),
  start: z.string().describe('The start as sent.'),
  firstWorkingDay: z.string(),
  finish: z.string(),
  durationDays: z.number().int(),
  templateId: z.string(),
  templateVersion: z.number().int(),
  calendar: z.object({
    timeZone: z.string(),
    workingDays: z.array(z.string()),
    holidays: z.array(z.string()),
  }),
  tasks: z.array(scheduledTask),
  criticalPath: z.array(z.string()),
  criticalPaths: z.array(z.array(z.string())),
  criticalPathsTruncated: z.boolean(),
});

const citation = z.object({ instrument: z.string(), section: z.string(), url: z.string() });
const complianceSchema = z.object({
  projectId: z.string(),
  jurisdiction: z.object({
    id: z.string(),
    name: z.string(),
    authority: z.string(),
    countryCode: z.string(),
    locatedBy: z.enum(['geo', 'address']),
  }),
  rulesetVersion: z.string(),
  rulesetReviewedOn: z.string(),
  obligations: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      requirement: z.string(),
      citation,
      guidance: citation.optional(),
    }),
  ),
  planSet: z
    .object({
      ready: z.boolean(),
      items: z.array(z.object({ id: z.string(), label: z.string(), met: z.boolean() })),
      missing: z.array(z.string()),
    })
    .optional()
    .describe('Present only when a solar design exists.'),
  note: z.string(),
});

const permitValues = z.record(z.string(), z.string());
const permitSchema = z.object({
  projectId: z.string(),
  metadata: permitValues.describe('In effect: tenant defaults with the project override merged over them.'),
  values: z.array(z.object({ key: z.string(), value: z.string(), source: z.enum(['tenant', 'project']) })),
  tenantDefaults: permitValues,
  projectOverride: permitValues,
});

const permitBodyDescription = `Sparse permit metadata: ${Object.keys(PERMIT_KEYS).join(', ')}. Text sets a key, null clears it; unknown keys are dropped.`;
const permitBody = z.looseObject(
  Object.fromEntries(
    Object.entries(PERMIT_KEYS).map(([key, description]) => [
      key,
      z.unknown().optional().describe(`${description} Text, or null.`),
    ]),
  ),
);

/** Known keys as entries (null clears); unknown keys named back as dropped; a bad value is invalid_body. */
function permitEntries(body: Record<string, unknown>) {
  const input = splitPermitInput(body);
  if (input.problems.length) throw new AppError('invalid_body', `${input.problems.join('; ')}.`);
  return {
    entries: input.entries.map(({ key, value }) => (value === null ? { key } : { key, value })),
    droppedKeys: input.dropped,
  };
}

const calendarInput = z.strictObject({
  timeZone: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('IANA time zone of the sites, such as America/Denver.'),
  workingDays: z
    .array(z.enum(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']))
    .min(1)
    .max(7)
    .optional(),
  holidays: z.array(calendarDate('A day nobody works.')).max(2000).optional(),
});

const settingsSchema = z.object({
  permitDefaults: permitValues,
  calendar: scheduleSchema.shape.calendar,
  updatedAt: z.string(),
});

const taskSchema = z.object({
  id: z.string(),
  memberId: z.string(),
  kind: z.enum(['todo', 'visit', 'work']),
  title: z.string(),
  projectId: z.string().optional(),
  dueDate: z.string().optional(),
  notes: z.string().optional(),
  status: z.string(),
  durationDays: z.number().int().optional(),
  predecessors: z.array(dependency),
  replacesTemplateTask: z.string().optional(),
  startNoEarlierThan: z.string().optional(),
  networkId: z.string().optional().describe("A work task's id in its project's schedule network."),
  createdAt: z.string(),
  opId: z.string().optional(),
});

const templateSchema = z.object({
  id: z.string(),
  vertical: z.string(),
  version: z.number().int(),
  name: z.string(),
  description: z.string(),
  tasks: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      durationDays: z.number().int(),
      predecessors: z.array(dependency),
    }),
  ),
});

const visitSchema = z.object({
  taskId: z.string(),
  title: z.string(),
  memberId: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  projectStatus: z.string(),
  vertical: z.string(),
  site: z.record(z.string(), z.unknown()).optional(),
  imagery: z
    .object({ capturedAt: z.string(), ageDays: z.number().int() })
    .optional()
    .describe('Absent: no imagery yet.'),
  roofMarked: z.boolean(),
  draftFlightPlan: z
    .object({
      id: z.string(),
      humanReviewed: z.boolean(),
      reviewedBy: z.string().optional(),
      reviewedAt: z.string().optional(),
    })
    .optional(),
  humanReviewed: z.boolean(),
  readiness: z.object({
    state: z.enum(['prepared', 'needs_preparation']),
    missing: z.array(z.string()),
    note: z.string(),
  }),
});

const placeSchema = z.object({
  name: z.string(),
  region: z.string().optional(),
  countryCode: z.string(),
  lat: z.number(),
  lng: z.number(),
  precision: z.enum(['locality', 'address']),
  population: z.number().optional(),
  source: z.enum(['gazetteer', 'nominatim']),
});

const scheduleEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'getProjectSchedule',
    method: 'GET',
    path: '/projects/:id/schedule',
    tag: 'Projects',
    summary: "Critical-path plan of the project's task network: computed dates, float and the critical path.",
    description:
      "The network is the project vertical's template plus the project's work tasks (POST /tasks kind work), on the tenant's work calendar (GET /settings/planning). 409 conflict names why a network cannot be scheduled (details.reason: dependency_cycle, unknown_dependency, duplicate_task, beyond_horizon).",
    auth: 'scope',
    scope: { action: 'read', kind: 'job' },
    params: idParams,
    projectParam: 'id',
    query: z.strictObject({
      start: calendarDate(
        'First day of the plan (YYYY-MM-DD; a date-time is refused), echoed as sent. Default: today on the calendar.',
      ).optional(),
    }),
    response: z.object({ schedule: scheduleSchema }),
    errors: ['not_found', 'field_invalid', 'conflict'],
    handle: async ({ params, query, ctx, clients }) => {
      const schedule = await callUnary(
        clients.planning,
        'getSchedule',
        { projectId: params.id, start: query.start ?? '' },
        ctx,
      );
      return {
        body: {
          schedule: { ...schedule, criticalPaths: schedule.criticalPaths.map((chain) => chain.taskIds) },
        },
      };
    },
  }),
];

const complianceEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'getProjectCompliance',
    method: 'GET',
    path: '/projects/:id/compliance',
    tag: 'Projects',
    summary:
      "Statutory obligations of the site's jurisdiction with citations; plan-set readiness when a solar design exists.",
    description:
      'From the versioned rules data set shipped with the service (US, UK, EU/EASA, Canada, Australia). 409 conflict when the site cannot be placed in a covered jurisdiction (details.reason).',
    auth: 'scope',
    scope: { action: 'read', kind: 'deliverable' },
    params: idParams,
    projectParam: 'id',
    response: z.object({ compliance: complianceSchema }),
    errors: ['not_found', 'conflict'],
    handle: async ({ params, ctx, clients }) => {
      const compliance = await callUnary(
        clients.planning,
        'getCompliance',
        { projectId: params.id },
        ctx,
        GEOCODING_DEADLINE,
      );
      return { body: { compliance } };
    },
  }),
];

const permitEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'getProjectPermit',
    method: 'GET',
    path: '/projects/:id/permit',
    tag: 'Projects',
    summary: 'Permit metadata in effect: the tenant defaults with the project override merged over them.',
    auth: 'scope',
    scope: { action: 'read', kind: 'deliverable' },
    params: idParams,
    projectParam: 'id',
    response: z.object({ permit: permitSchema }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => {
      const permit = await callUnary(clients.planning, 'getPermit', { projectId: params.id }, ctx);
      return { body: { permit } };
    },
  }),
  defineEndpoint({
    operationId: 'setProjectPermit',
    method: 'POST',
    path: '/projects/:id/permit',
    tag: 'Projects',
    summary:
      "Set the project's permit override (sparse; unknown keys dropped); the tenant defaults stay untouched.",
    description: permitBodyDescription,
    auth: 'scope',
    scope: { action: 'update', kind: 'deliverable' },
    params: idParams,
    projectParam: 'id',
    idempotent: true,
    dryRun: true,
    body: permitBody,
    response: writeResponse('permit', permitSchema).extend({ droppedKeys: z.array(z.string()) }),
    errors: ['not_found', 'invalid_json', 'invalid_body'],
    handle: async ({ params, body, ctx, clients }) => {
      const write = await callUnary(
        clients.planning,
        'setPermitOverride',
        { projectId: params.id, ...permitEntries(body) },
        ctx,
      );
      const result = writeResult('permit', write.permit, write.meta);
      return { ...result, body: { ...result.body, droppedKeys: write.droppedKeys } };
    },
  }),
  defineEndpoint({
    operationId: 'getPlanningSettings',
    method: 'GET',
    path: '/settings/planning',
    tag: 'Settings',
    summary:
      "The tenant's planning settings: permit metadata defaults and the work calendar schedules run on.",
    auth: 'scope',
    scope: { action: 'read', kind: 'settings' },
    response: z.object({ settings: settingsSchema }),
    errors: [],
    handle: async ({ ctx, clients }) => ({
      body: { settings: await callUnary(clients.planning, 'getPlanningSettings', {}, ctx) },
    }),
  }),
  defineEndpoint({
    operationId: 'setPlanningSettings',
    method: 'POST',
    path: '/settings/planning',
    tag: 'Settings',
    summary:
      "Set the tenant's permit defaults (sparse; unknown keys dropped) and work calendar; project overrides stay.",
    auth: 'scope',
    scope: { action: 'update', kind: 'settings' },
    idempotent: true,
    dryRun: true,
    body: z.strictObject({
      permitDefaults: z.record(z.string(), z.unknown()).optional().describe(permitBodyDescription),
      calendar: calendarInput.optional(),
      opId: opIdField,
    }),
    bodyRequiresOneOf: ['permitDefaults', 'calendar'],
    response: writeResponse('settings', settingsSchema).extend({ droppedKeys: z.array(z.string()) }),
    errors: ['invalid_json', 'invalid_body', 'field_invalid', 'field_invalid_enum', 'unknown_field'],
    handle: async ({ body, ctx, clients }) => {
      const permit = permitEntries(body.permitDefaults ?? {});
      const calendar = body.calendar
        ? {
            timeZone: body.calendar.timeZone ?? '',
            workingDays: body.calendar.workingDays ?? [],
            holidays: body.calendar.holidays ?? [],
          }
        : undefined;
      const write = await callUnary(
        clients.planning,
        'setPlanningSettings',
        { permitDefaults: permit.entries, calendar, droppedKeys: permit.droppedKeys },
        ctx,
      );
      const result = writeResult('settings', write.settings, write.meta);
      return { ...result, body: { ...result.body, droppedKeys: write.droppedKeys } };
    },
  }),
];

const taskEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'listTasks',
    method: 'GET',
    path: '/tasks',
    tag: 'Tasks',
    summary: 'Tasks of the member the token is bound to, newest first.',
    description: 'Needs a token bound to a member: an unbound token gets 409 principal_unbound.',
    auth: 'scope',
    scope: { action: 'read', kind: 'job' },
    list: true,
    query: z.strictObject({
      ...pageQuery,
      projectId: z.string().min(1).max(100).optional(),
      kind: z.enum(['todo', 'visit', 'work']).optional(),
    }),
    response: pageResponse(taskSchema),
    memberBound: true,
    errors: ['principal_unbound', 'field_invalid', 'field_invalid_enum'],
    handle: async ({ query, ctx, clients, caller }) => {
      const page = await callUnary(
        clients.planning,
        'listTasks',
        { page: pageRequest(query), projectId: query.projectId, kind: query.kind, scope: scopeOf(caller) },
        ctx,
      );
      return { body: pageBody(page) };
    },
  }),
  defineEndpoint({
    operationId: 'createTask',
    method: 'POST',
    path: '/tasks',
    tag: 'Tasks',
    summary:
      'File a task for the member the token is bound to: a to-do, a site visit (day view) or work in a project’s schedule.',
    description:
      'kind visit needs projectId and dueDate; kind work needs projectId and durationDays and joins the project network (replacesTemplateTask stands in for a template task). Work that would close a dependency cycle is 409 conflict. Needs a member-bound token (409 principal_unbound).',
    auth: 'scope',
    scope: { action: 'create', kind: 'job' },
    idempotent: true,
    dryRun: true,
    body: z.strictObject({
      kind: z.enum(['todo', 'visit', 'work']).default('todo'),
      title: z.string().trim().min(1).max(200),
      projectId: z.string().min(1).max(100).optional(),
      dueDate: calendarDate('The day the task is due (for a visit: the day of the visit).').optional(),
      notes: z.string().max(5000).optional(),
      durationDays: z.number().int().min(0).max(1000).optional(),
      predecessors: z.array(dependency).max(50).optional(),
      replacesTemplateTask: z.string().min(1).max(100).optional(),
      startNoEarlierThan: calendarDate('A day before which the work cannot start.').optional(),
      opId: opIdField,
    }),
    response: writeResponse('task', taskSchema),
    memberBound: true,
    errors: [
      'principal_unbound',
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_invalid',
      'field_invalid_enum',
      'unknown_field',
      'conflict',
    ],
    handle: async ({ body, ctx, clients, caller }) => {
      const write = await callUnary(
        clients.planning,
        'createTask',
        { ...body, predecessors: body.predecessors ?? [], scope: scopeOf(caller) },
        ctx,
      );
      return writeResult('task', write.task, write.meta);
    },
  }),
  defineEndpoint({
    operationId: 'getDay',
    method: 'GET',
    path: '/day',
    tag: 'Tasks',
    summary:
      "The visits of a date: each site, its imagery's age, roof marked, draft flight plan and human review.",
    description: 'Readiness describes preparation only and never authorizes a flight.',
    auth: 'scope',
    scope: { action: 'read', kind: 'job' },
    query: z.strictObject({
      date: calendarDate('The day (YYYY-MM-DD). Default: today (UTC).').optional(),
      memberId: z.string().min(1).max(100).optional().describe("Only this member's visits."),
    }),
    response: z.object({ date: z.string(), visits: z.array(visitSchema), note: z.string() }),
    errors: ['field_invalid'],
    handle: async ({ query, ctx, clients, caller }) => {
      const date = query.date ?? new Date().toISOString().slice(0, 10);
      const day = await callUnary(
        clients.planning,
        'getDay',
        { date, memberId: query.memberId, scope: scopeOf(caller) },
        ctx,
      );
      return { body: { ...day } };
    },
  }),
];

const templateEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'listTemplates',
    method: 'GET',
    path: '/templates',
    tag: 'Templates',
    summary: 'Task-network templates shipped with the service, one per vertical.',
    auth: 'scope',
    scope: { action: 'read', kind: 'job' },
    query: z.strictObject({ vertical: z.string().min(1).max(40).optional() }),
    response: z.object({ items: z.array(templateSchema) }),
    errors: ['field_invalid'],
    handle: async ({ query, ctx, clients }) => {
      const list = await callUnary(clients.planning, 'listTemplates', { vertical: query.vertical }, ctx);
      return { body: { items: list.items } };
    },
  }),
  defineEndpoint({
    operationId: 'getTemplate',
    method: 'GET',
    path: '/templates/:id',
    tag: 'Templates',
    summary: 'One template: its tasks, durations and dependencies.',
    auth: 'scope',
    scope: { action: 'read', kind: 'job' },
    params: idParams,
    response: z.object({ template: templateSchema }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => ({
      body: { template: await callUnary(clients.planning, 'getTemplate', { id: params.id }, ctx) },
    }),
  }),
  defineEndpoint({
    operationId: 'geocode',
    method: 'GET',
    path: '/geocode',
    tag: 'Geocoding',
    summary:
      'Search places by text (q), or reverse-geocode a point (lat and lng) to its country and nearest place.',
    description:
      'The offline gazetteer (GeoNames places of 1000+ people) unless the operator configures Nominatim.',
    auth: 'scope',
    scope: { action: 'read', kind: 'job' },
    query: z.strictObject({
      q: z.string().trim().min(1).max(200).optional(),
      lat: z.coerce.number().min(-90).max(90).optional(),
      lng: z.coerce.number().min(-180).max(180).optional(),
      country: z
        .string()
        .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as US')
        .toUpperCase()
        .optional(),
      limit: z.coerce.number().int().min(1).max(20).optional(),
    }),
    response: z.object({
      items: z.array(placeSchema),
      countryCode: z.string().nullable().optional(),
      geocoder: z.string(),
      attribution: z.string().describe('The credit the data licence asks for.'),
    }),
    errors: ['field_required', 'field_invalid', 'unavailable'],
    handle: async ({ query, ctx, clients }) => {
      if (query.q === undefined && (query.lat === undefined || query.lng === undefined)) {
        throw new AppError(
          'field_required',
          'Send q to search, or both lat and lng to reverse-geocode a point.',
          {
            field:
              query.lat === undefined && query.lng === undefined
                ? 'q'
                : query.lat === undefined
                  ? 'lat'
                  : 'lng',
          },
        );
      }
      const reply = await callUnary(
        clients.planning,
        'geocode',
        {
          q: query.q,
          lat: query.q === undefined ? query.lat : undefined,
          lng: query.q === undefined ? query.lng : undefined,
          limit: query.limit ?? 5,
          country: query.country,
        },
        ctx,
        GEOCODING_DEADLINE,
      );
      const reverse = query.q === undefined ? { countryCode: reply.countryCode || null } : {};
      return {
        body: { items: reply.items, ...reverse, geocoder: reply.geocoder, attribution: reply.attribution },
      };
    },
  }),
];

export const planningEndpoints: EndpointDef[] = [
  ...scheduleEndpoints,
  ...complianceEndpoints,
  ...permitEndpoints,
  ...taskEndpoints,
  ...templateEndpoints,
];
