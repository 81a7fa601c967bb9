// GET /api/v1/projects/:id/schedule: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./planning.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { idParams } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { calendarDate, scheduleSchema } from './planning.schemas.ts';

export const getProjectSchedule = defineEndpoint({
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
  errors: ['conflict'],
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
});
