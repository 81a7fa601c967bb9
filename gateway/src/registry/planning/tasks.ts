// GET /api/v1/tasks, POST /api/v1/tasks: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./planning.schemas.ts; listed by ../families.gen.ts.
import {
  ID_REF_MAX,
  TASK_DAYS_MAX,
  TASK_FIELD_LIMITS as MAX,
  TASK_PREDECESSORS_MAX,
} from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField, writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { listEndpoint } from '../../endpoint/list-endpoint.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { scopeOf, calendarDate, dependency, taskSchema } from './planning.schemas.ts';

export const listTasks = listEndpoint({
  operationId: 'listTasks',
  path: '/tasks',
  tag: 'Tasks',
  summary: 'Tasks of the member the token is bound to, newest first.',
  description: 'Needs a token bound to a member: an unbound token gets 409 principal_unbound.',
  kind: 'job',
  service: 'planning',
  filters: {
    projectId: z.string().min(1).max(ID_REF_MAX).optional(),
    kind: z.enum(['todo', 'visit', 'work']).optional(),
  },
  item: taskSchema,
  projectScope: true,
  memberBound: true,
  errors: ['principal_unbound'],
});

export const createTask = defineEndpoint({
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
    title: z.string().trim().min(1).max(MAX.title),
    projectId: z.string().min(1).max(MAX.projectId).optional(),
    dueDate: calendarDate('The day the task is due (for a visit: the day of the visit).').optional(),
    notes: z.string().max(MAX.notes).optional(),
    durationDays: z.number().int().min(0).max(TASK_DAYS_MAX).optional(),
    predecessors: z.array(dependency).max(TASK_PREDECESSORS_MAX).optional(),
    replacesTemplateTask: z.string().min(1).max(MAX.replacesTemplateTask).optional(),
    startNoEarlierThan: calendarDate('A day before which the work cannot start.').optional(),
    opId: opIdField,
  }),
  response: writeResponse('task', taskSchema),
  memberBound: true,
  errors: ['principal_unbound', 'not_found'],
  handle: ({ body, ctx, clients, caller }) =>
    forwardWrite(
      'task',
      callUnary(
        clients.planning,
        'createTask',
        { ...body, predecessors: body.predecessors ?? [], scope: scopeOf(caller) },
        ctx,
      ),
    ),
});
