// A schedule: the critical-path passes over a task network, turned into calendar dates on a work
// calendar. Pure: the same network, calendar and start always give the same plan.
//
// Dates: a task of d working days at offset s occupies the working days s .. s+d-1, so its start
// date is the working day at offset s and its finish date the working day at offset s+d-1 (the
// end of that day). A milestone (d = 0) is an instant at the end of the working day before its
// offset, so a milestone after a task that finishes on Wednesday is dated Wednesday; one at
// offset 0 is dated on the first working day.
import { formatCalendarDate, parseCalendarDate, type DayNumber } from './calendar-date.ts';
import { MAX_HOLIDAYS } from './calendar.schema.ts';
import { criticalChains, criticalTaskOrder, isCritical } from './critical-chains.ts';
import { computeCpm, type CpmTask, type CpmTimes } from './critical-path.ts';
import type { Dependency, NetworkTask } from './network.ts';
import { beyondHorizon } from './schedule.errors.ts';
import { topologicalOrder } from './topological-order.ts';
import type { WorkCalendar } from './work-calendar.ts';

/** About twenty years of working days: no site job plans further, and it bounds the calendar walk. */
export const MAX_SCHEDULE_WORKING_DAYS = 5200;
const LAST_CALENDAR_DAY = parseCalendarDate('9999-12-31') as DayNumber;

export interface ScheduledTask {
  id: string;
  name: string;
  source: NetworkTask['source'];
  durationDays: number;
  milestone: boolean;
  predecessors: Dependency[];
  startNoEarlierThan?: string;
  earlyStart: string;
  earlyFinish: string;
  lateStart: string;
  lateFinish: string;
  /** Working days the task can slip without moving the project finish. */
  totalFloat: number;
  /** Working days the task can slip without moving any successor's early dates. */
  freeFloat: number;
  critical: boolean;
}

export interface Schedule {
  /** The first working day of the plan (the start itself when it is one). */
  firstWorkingDay: string;
  /** The finish date of the last task. */
  finish: string;
  /** Working days from the first working day to the finish. */
  durationDays: number;
  /** Tasks in dependency order. */
  tasks: ScheduledTask[];
  /** Every critical task once, in the order they happen. */
  criticalPath: string[];
  /** Each chain of driving critical links, start to finish (parallel critical chains each listed). */
  criticalPaths: string[][];
  criticalPathsTruncated: boolean;
}

/** Schedules `network` from `start` (YYYY-MM-DD) on `calendar`. Throws 409s when it cannot. */
export function computeSchedule(
  network: readonly NetworkTask[],
  calendar: WorkCalendar,
  start: string,
): Schedule {
  const origin = parseCalendarDate(start) as DayNumber;
  const order = topologicalOrder(network);
  const indexOf = new Map(network.map((task, index) => [task.id, index]));
  const cpm = computeCpm(
    network.map((task) => cpmTask(task, calendar, origin)),
    order,
    indexOf,
  );
  if (cpm.finish > MAX_SCHEDULE_WORKING_DAYS) {
    throw beyondHorizon(
      `the plan's finish (${cpm.finish} working days)`,
      `${MAX_SCHEDULE_WORKING_DAYS} working days`,
    );
  }
  const dateAt = datesFrom(calendar, origin, cpm.finish);
  const chains = criticalChains(cpm.times, cpm.links, order);
  const idAt = (index: number): string => (network[index] as NetworkTask).id;
  return {
    firstWorkingDay: dateAt.start(0),
    finish: dateAt.finish(cpm.finish),
    durationDays: cpm.finish,
    tasks: order.map((index) =>
      scheduledTask(network[index] as NetworkTask, cpm.times[index] as CpmTimes, dateAt),
    ),
    criticalPath: criticalTaskOrder(cpm.times, order).map(idAt),
    criticalPaths: chains.chains.map((chain) => chain.map(idAt)),
    criticalPathsTruncated: chains.truncated,
  };
}

function cpmTask(task: NetworkTask, calendar: WorkCalendar, origin: DayNumber): CpmTask {
  return {
    durationDays: task.durationDays,
    predecessors: task.predecessors,
    notBefore: notBeforeOffset(task, calendar, origin),
  };
}

/** Calendar days that surely hold the horizon's working days: one working day a week, every holiday. */
const HORIZON_CALENDAR_DAYS = MAX_SCHEDULE_WORKING_DAYS * 7 + MAX_HOLIDAYS;

/**
 * The working-day offset of a task's start-no-earlier-than date. A date before the start binds
 * nothing (0) and one past the horizon is refused, so the calendar walk stays bounded whatever
 * dates a task names.
 */
function notBeforeOffset(task: NetworkTask, calendar: WorkCalendar, origin: DayNumber): number {
  if (!task.startNoEarlierThan) return 0;
  const day = parseCalendarDate(task.startNoEarlierThan) as DayNumber;
  if (day <= origin) return 0;
  if (day - origin > HORIZON_CALENDAR_DAYS) {
    throw beyondHorizon(
      `task ${task.id}'s start-no-earlier-than date ${task.startNoEarlierThan}`,
      `${MAX_SCHEDULE_WORKING_DAYS} working days`,
    );
  }
  return calendar.offsetOf(origin, day);
}

interface DateAt {
  /** The date of the working day at `offset`. */
  start(offset: number): string;
  /** The date of the end of the working day before `offset` (a task ending there finishes then). */
  finish(offset: number): string;
}

/** Every working day the plan can touch, walked once, then looked up by offset. */
function datesFrom(calendar: WorkCalendar, origin: DayNumber, finish: number): DateAt {
  const days = calendar.workingDaysFrom(origin, finish + 1);
  const last = days[days.length - 1] as DayNumber;
  if (last > LAST_CALENDAR_DAY) throw beyondHorizon('the plan', 'the year 9999');
  const start = (offset: number): string => formatCalendarDate(days[offset] as DayNumber);
  return {
    start,
    finish: (offset) => start(Math.max(0, offset - 1)),
  };
}

function scheduledTask(task: NetworkTask, times: CpmTimes, dateAt: DateAt): ScheduledTask {
  const milestone = task.durationDays === 0;
  // A milestone's start is its finish: the end of the working day before its offset.
  const startOf = (offset: number): string => (milestone ? dateAt.finish(offset) : dateAt.start(offset));
  return {
    id: task.id,
    name: task.name,
    source: task.source,
    durationDays: task.durationDays,
    milestone,
    predecessors: task.predecessors,
    ...(task.startNoEarlierThan ? { startNoEarlierThan: task.startNoEarlierThan } : {}),
    earlyStart: startOf(times.earlyStart),
    earlyFinish: dateAt.finish(times.earlyFinish),
    lateStart: startOf(times.lateStart),
    lateFinish: dateAt.finish(times.lateFinish),
    totalFloat: times.totalFloat,
    freeFloat: times.freeFloat,
    critical: isCritical(times),
  };
}
