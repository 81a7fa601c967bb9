// A project's task network: the tasks of its template plus the project's own, each with a
// duration in working days and its predecessors. A dependency says how the task hangs on a
// predecessor (the successor is the task that declares it):
//   FS  finish-to-start   the task starts    once the predecessor finishes  (+ lag)
//   SS  start-to-start    the task starts    once the predecessor starts    (+ lag)
//   FF  finish-to-finish  the task finishes  once the predecessor finishes  (+ lag)
//   SF  start-to-finish   the task finishes  once the predecessor starts    (+ lag)
// A lag counts working days; a negative lag is a lead (the task may begin that much earlier).
import {
  DEPENDENCY_FIELD_LIMITS,
  DEPENDENCY_TYPES,
  ID_REF_MAX,
  TASK_DAYS_MAX,
  TASK_FIELD_LIMITS,
  TASK_PREDECESSORS_MAX,
} from '@fieldops/contracts';
import { AppError } from '@fieldops/kit';
import { z } from 'zod';
import { calendarDateSchema } from './calendar.schema.ts';
import { duplicateTask, unknownDependency } from './schedule.errors.ts';

export const MAX_PROJECT_TASKS = 500;

export const dependencySchema = z.strictObject({
  taskId: z.string().min(1).max(DEPENDENCY_FIELD_LIMITS.taskId).describe('The predecessor.'),
  type: z.enum(DEPENDENCY_TYPES).default('FS'),
  lagDays: z
    .number()
    .int()
    .min(-TASK_DAYS_MAX)
    .max(TASK_DAYS_MAX)
    .default(0)
    .describe('Working days after the predecessor event; negative is a lead.'),
});

/** A task as a template or a project declares it. Zero working days makes it a milestone. */
export const taskDefinitionSchema = z.strictObject({
  id: z.string().min(1).max(ID_REF_MAX),
  name: z.string().trim().min(1).max(TASK_FIELD_LIMITS.title),
  durationDays: z.number().int().min(0).max(TASK_DAYS_MAX).describe('Working days; 0 is a milestone.'),
  predecessors: z.array(dependencySchema).max(TASK_PREDECESSORS_MAX).default([]),
  startNoEarlierThan: calendarDateSchema
    .optional()
    .describe('A date before which the task cannot start, such as a booked site visit.'),
});

export type Dependency = z.output<typeof dependencySchema>;

/**
 * The `index`-th predecessor of a task sent to the service, checked as the gateway checks it, so a
 * direct gRPC call with a bad one gets 400 field_invalid naming it rather than an internal error.
 */
export function parseDependency(input: unknown, index: number): Dependency {
  const parsed = dependencySchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = ['predecessors', index, ...(issue?.path ?? [])].map(String).join('.');
  throw new AppError('field_invalid', `${field}: ${issue?.message ?? 'not a valid dependency'}.`, { field });
}
export type TaskDefinition = z.output<typeof taskDefinitionSchema>;
export type TaskDefinitionInput = z.input<typeof taskDefinitionSchema>;

/** Where a task of the network comes from: its template, or the project's own list. */
export type TaskSource = 'template' | 'project';

export interface NetworkTask extends TaskDefinition {
  source: TaskSource;
}

/**
 * The network a project is scheduled on. A project task with the id of a template task replaces
 * it (how a project adjusts a template's duration or dependencies); any other project task is
 * added. Ids repeated within one list and dependencies on tasks that do not exist are 409s.
 */
export function buildNetwork(
  templateTasks: readonly TaskDefinition[],
  projectTasks: readonly TaskDefinition[] = [],
): NetworkTask[] {
  assertUniqueIds(templateTasks);
  assertUniqueIds(projectTasks);
  const overrides = new Map(projectTasks.map((task) => [task.id, task]));
  const templateIds = new Set(templateTasks.map((task) => task.id));
  const network: NetworkTask[] = [
    ...templateTasks.map((task) => withSource(overrides.get(task.id) ?? task, overrides.has(task.id))),
    ...projectTasks.filter((task) => !templateIds.has(task.id)).map((task) => withSource(task, true)),
  ];
  assertDependenciesExist(network);
  return network;
}

const withSource = (task: TaskDefinition, fromProject: boolean): NetworkTask => ({
  ...task,
  source: fromProject ? 'project' : 'template',
});

function assertUniqueIds(tasks: readonly TaskDefinition[]): void {
  const seen = new Set<string>();
  for (const { id } of tasks) {
    if (seen.has(id)) throw duplicateTask(id);
    seen.add(id);
  }
}

function assertDependenciesExist(tasks: readonly NetworkTask[]): void {
  const ids = new Set(tasks.map((task) => task.id));
  for (const task of tasks) {
    const missing = task.predecessors.find((dependency) => !ids.has(dependency.taskId));
    if (missing) throw unknownDependency(task.id, missing.taskId);
  }
}
