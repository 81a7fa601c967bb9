// Orders a task network so every task comes after all its predecessors (Kahn's algorithm), or
// names a cycle when no such order exists. Ties keep the order the tasks were declared in, so the
// same network always yields the same order, and the same cycle.
import { dependencyCycle } from './schedule.errors.ts';

/** The minimum a task needs here: its id and the ids it depends on. */
export interface Node {
  id: string;
  predecessors: readonly { taskId: string }[];
}

/**
 * Indices of `tasks` in dependency order. Throws a 409 naming a cycle when there is one.
 * Every predecessor id must be the id of one of `tasks` (buildNetwork checks that).
 */
export function topologicalOrder(tasks: readonly Node[]): number[] {
  const indexOf = new Map(tasks.map((task, index) => [task.id, index]));
  const successors: number[][] = tasks.map(() => []);
  const waitingOn = tasks.map((task) => task.predecessors.length);
  tasks.forEach((task, index) => {
    for (const { taskId } of task.predecessors) successors[indexOf.get(taskId) as number]?.push(index);
  });

  const order: number[] = [];
  const ready = tasks.flatMap((_, index) => (waitingOn[index] === 0 ? [index] : []));
  // `ready` grows while it is read: a queue without shifting, so the order is first-declared-first.
  for (let next = 0; next < ready.length; next += 1) {
    const index = ready[next] as number;
    order.push(index);
    for (const successor of successors[index] ?? []) {
      waitingOn[successor] = (waitingOn[successor] as number) - 1;
      if (waitingOn[successor] === 0) ready.push(successor);
    }
  }
  if (order.length < tasks.length) throw dependencyCycle(findCycle(tasks, indexOf, new Set(order)));
  return order;
}

/**
 * A cycle among the tasks Kahn's algorithm could not place. Each of them waits on at least one
 * other unplaced task, so walking from one to an unplaced predecessor, again and again, must
 * revisit a task; the walk from that task's first visit is the cycle. Returned in dependency
 * order (predecessor first), closed by repeating its first task: [a, b, c, a].
 */
function findCycle(tasks: readonly Node[], indexOf: Map<string, number>, placed: Set<number>): string[] {
  const stuck = (index: number) => !placed.has(index);
  let current = tasks.findIndex((_, index) => stuck(index));
  const walk: number[] = [];
  const visitedAt = new Map<number, number>();
  while (!visitedAt.has(current)) {
    visitedAt.set(current, walk.length);
    walk.push(current);
    const task = tasks[current] as Node;
    const predecessor = task.predecessors
      .map(({ taskId }) => indexOf.get(taskId) as number)
      .find((index) => stuck(index));
    current = predecessor as number;
  }
  // The walk went from each task to its predecessor; reverse it to read in dependency order.
  const loop = walk.slice(visitedAt.get(current)).reverse();
  // Begin at the task declared first, so a cycle reads the same whichever task the walk began at.
  const first = loop.indexOf(Math.min(...loop));
  const ids = [...loop.slice(first), ...loop.slice(0, first)].map((index) => (tasks[index] as Node).id);
  return [...ids, ids[0] as string];
}
