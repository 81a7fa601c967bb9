// Why a task network cannot be scheduled. Each is a 409 conflict (the network as stored
// contradicts itself; fixing the tasks resolves it) whose `details.reason` a program can branch
// on and whose sentence names the tasks a person has to change.
import { AppError } from '@fieldops/kit';

export const UNSCHEDULABLE_REASONS = [
  'dependency_cycle',
  'unknown_dependency',
  'duplicate_task',
  'beyond_horizon',
] as const;
export type UnschedulableReason = (typeof UNSCHEDULABLE_REASONS)[number];

const unschedulable = (reason: UnschedulableReason, message: string, details: Record<string, unknown>) =>
  new AppError('conflict', `The schedule cannot be computed: ${message}`, {
    details: { reason, ...details },
  });

/** `cycle` lists the tasks in dependency order and repeats the first at the end: [a, b, a]. */
export const dependencyCycle = (cycle: readonly string[]): AppError =>
  unschedulable(
    'dependency_cycle',
    cycle.length === 2
      ? `task ${cycle[0]} depends on itself. Remove that dependency.`
      : `tasks ${cycle.join(' → ')} depend on each other in a circle. Remove one of these dependencies.`,
    { cycle: [...cycle] },
  );

export const unknownDependency = (taskId: string, dependsOn: string): AppError =>
  unschedulable(
    'unknown_dependency',
    `task ${taskId} depends on ${dependsOn}, which is not a task of this project. Remove the dependency or add the task.`,
    { taskId, dependsOn },
  );

export const duplicateTask = (taskId: string): AppError =>
  unschedulable('duplicate_task', `two tasks share the id ${taskId}. Give each task its own id.`, {
    taskId,
  });

export const beyondHorizon = (what: string, limit: string): AppError =>
  unschedulable(
    'beyond_horizon',
    `${what} lies beyond ${limit}. Shorten the tasks or lags, or move the start.`,
    {
      limit,
    },
  );
