// The critical-path method on working-day offsets. A task of duration d occupies the working
// days [start, start + d): earlyStart 0 and duration 3 is offsets 0, 1 and 2, earlyFinish 3. A
// milestone (d = 0) is an instant: start and finish coincide.
//
// Forward pass, in dependency order: a task starts as early as every predecessor link allows
// and never before the project start (offset 0) or its own not-before offset.
// Backward pass, in reverse order: a task finishes as late as every successor link allows and
// never after the project finish. Total float = late start - early start; free float = how far a
// task can slip before it moves any successor's early dates (or the project finish).
import type { DependencyType } from '@fieldops/contracts';

export interface CpmTask {
  durationDays: number;
  predecessors: readonly { taskId: string; type: DependencyType; lagDays: number }[];
  /** Working-day offset before which the task may not start (0 when unconstrained). */
  notBefore: number;
}

export interface CpmTimes {
  earlyStart: number;
  earlyFinish: number;
  lateStart: number;
  lateFinish: number;
  totalFloat: number;
  freeFloat: number;
}

/** A dependency from the predecessor's side. */
export interface Link {
  from: number;
  to: number;
  type: DependencyType;
  lag: number;
}

export interface CpmResult {
  /** Index-aligned with the tasks passed in. */
  times: CpmTimes[];
  /** Offset at which the last task finishes: the project's length in working days. */
  finish: number;
  links: Link[];
}

/** Runs both passes. `order` is a topological order of `tasks` (indices); `indexOf` maps a task id to its index. */
export function computeCpm(
  tasks: readonly CpmTask[],
  order: readonly number[],
  indexOf: ReadonlyMap<string, number>,
): CpmResult {
  const links = linksOf(tasks, indexOf);
  const incoming = groupBy(links, tasks.length, (link) => link.to);
  const outgoing = groupBy(links, tasks.length, (link) => link.from);

  const earlyStart: number[] = new Array<number>(tasks.length).fill(0);
  for (const index of order)
    earlyStart[index] = forwardStart(tasks, earlyStart, incoming[index] ?? [], index);
  const earlyFinish = earlyStart.map((start, index) => start + duration(tasks, index));
  const finish = Math.max(0, ...earlyFinish);

  const lateFinish: number[] = new Array<number>(tasks.length).fill(finish);
  for (const index of [...order].reverse()) {
    lateFinish[index] = backwardFinish(tasks, lateFinish, outgoing[index] ?? [], index, finish);
  }

  const times = tasks.map((_, index): CpmTimes => {
    const lateStart = (lateFinish[index] as number) - duration(tasks, index);
    return {
      earlyStart: earlyStart[index] as number,
      earlyFinish: earlyFinish[index] as number,
      lateStart,
      lateFinish: lateFinish[index] as number,
      totalFloat: lateStart - (earlyStart[index] as number),
      freeFloat: 0,
    };
  });
  for (const [index, entry] of times.entries())
    entry.freeFloat = freeFloat(times, outgoing[index] ?? [], index, finish);
  return { times, finish, links };
}

const duration = (tasks: readonly CpmTask[], index: number): number => (tasks[index] as CpmTask).durationDays;

function linksOf(tasks: readonly CpmTask[], indexOf: ReadonlyMap<string, number>): Link[] {
  return tasks.flatMap((task, to) =>
    task.predecessors.map((dependency) => ({
      from: indexOf.get(dependency.taskId) as number,
      to,
      type: dependency.type,
      lag: dependency.lagDays,
    })),
  );
}

function groupBy(links: readonly Link[], size: number, key: (link: Link) => number): Link[][] {
  const groups: Link[][] = Array.from({ length: size }, () => []);
  for (const link of links) groups[key(link)]?.push(link);
  return groups;
}

/** The earliest start of `index` that satisfies every incoming link, given its predecessors' starts. */
function forwardStart(
  tasks: readonly CpmTask[],
  earlyStart: number[],
  incoming: Link[],
  index: number,
): number {
  const own = duration(tasks, index);
  let start = Math.max(0, (tasks[index] as CpmTask).notBefore);
  for (const { from, type, lag } of incoming) {
    const predecessorStart = earlyStart[from] as number;
    const predecessorFinish = predecessorStart + duration(tasks, from);
    // The predecessor event the link waits on, and whether it bounds our start or our finish.
    const event = type === 'FS' || type === 'FF' ? predecessorFinish : predecessorStart;
    const boundsFinish = type === 'FF' || type === 'SF';
    start = Math.max(start, event + lag - (boundsFinish ? own : 0));
  }
  return start;
}

/** The latest finish of `index` that keeps every outgoing link and the project finish. */
function backwardFinish(
  tasks: readonly CpmTask[],
  lateFinish: number[],
  outgoing: Link[],
  index: number,
  projectFinish: number,
): number {
  const own = duration(tasks, index);
  let finish = projectFinish;
  for (const { to, type, lag } of outgoing) {
    const successorFinish = lateFinish[to] as number;
    const successorStart = successorFinish - duration(tasks, to);
    // The successor event the link constrains, and whether it hangs on our start or our finish.
    const event = type === 'FS' || type === 'SS' ? successorStart : successorFinish;
    const fromStart = type === 'SS' || type === 'SF';
    finish = Math.min(finish, event - lag + (fromStart ? own : 0));
  }
  return finish;
}

/** Slack on each outgoing link at early dates; the least of them (and of the project finish). */
function freeFloat(
  times: readonly CpmTimes[],
  outgoing: Link[],
  index: number,
  projectFinish: number,
): number {
  const own = times[index] as CpmTimes;
  let slack = projectFinish - own.earlyFinish;
  for (const link of outgoing) slack = Math.min(slack, linkSlack(times, link));
  return slack;
}

/** How many working days the link's predecessor event could slip before it moves the successor. */
export function linkSlack(times: readonly CpmTimes[], { from, to, type, lag }: Link): number {
  const predecessor = times[from] as CpmTimes;
  const successor = times[to] as CpmTimes;
  const event = type === 'FS' || type === 'FF' ? predecessor.earlyFinish : predecessor.earlyStart;
  const bound = type === 'FS' || type === 'SS' ? successor.earlyStart : successor.earlyFinish;
  return bound - (event + lag);
}
