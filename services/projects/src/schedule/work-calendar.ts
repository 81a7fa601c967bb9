// Working-day arithmetic on a calendar: which dates are working days, and the conversion between
// working-day offsets (what the critical-path passes count in) and calendar dates (what people
// read), both ways. Offsets count working days from the schedule's origin: offset 0 is the first
// working day on or after the start date, offset 1 the working day after it, and so on.
import { AppError } from '@fieldops/kit';
import { parseCalendarDate, weekdayOf, type DayNumber, type Weekday } from './calendar-date.ts';
import { calendarSpecSchema, type CalendarInput, type CalendarSpec } from './calendar.schema.ts';

export class WorkCalendar {
  private readonly weekdays: ReadonlySet<Weekday>;
  private readonly holidays: ReadonlySet<DayNumber>;

  /** `spec` must be parsed (calendarSpecSchema): at least one working weekday, real dates. */
  readonly spec: CalendarSpec;
  constructor(spec: CalendarSpec) {
    this.spec = spec;
    this.weekdays = new Set(spec.workingDays);
    this.holidays = new Set(spec.holidays.map((date) => parseCalendarDate(date) as DayNumber));
    // Every loop below walks towards a working day; with no working weekday none would end.
    if (this.weekdays.size === 0) throw new Error('A work calendar needs at least one working weekday.');
  }

  isWorkingDay(day: DayNumber): boolean {
    return this.weekdays.has(weekdayOf(day)) && !this.holidays.has(day);
  }

  /** `day` itself when it is a working day, else the next one. */
  firstWorkingDayFrom(day: DayNumber): DayNumber {
    let current = day;
    while (!this.isWorkingDay(current)) current += 1;
    return current;
  }

  /**
   * The working day `offset` working days from `origin` (offset 0 is the first working day on or
   * after `origin`; a negative offset walks back before it).
   */
  dayAtOffset(origin: DayNumber, offset: number): DayNumber {
    let current = this.firstWorkingDayFrom(origin);
    const step = offset < 0 ? -1 : 1;
    for (let left = Math.abs(offset); left > 0;) {
      current += step;
      if (this.isWorkingDay(current)) left -= 1;
    }
    return current;
  }

  /**
   * The offset of `day` from `origin`: the number of working days from the origin's first working
   * day up to, not including, `day` (negative before it). For a working day this inverts
   * dayAtOffset; a day off maps to the offset of the next working day.
   */
  offsetOf(origin: DayNumber, day: DayNumber): number {
    const first = this.firstWorkingDayFrom(origin);
    return day >= first ? this.workingDaysBetween(first, day) : -this.workingDaysBetween(day, first);
  }

  /** How many working days lie in [from, to) (0 when `to` is not after `from`). */
  workingDaysBetween(from: DayNumber, to: DayNumber): number {
    let count = 0;
    for (let day = from; day < to; day += 1) if (this.isWorkingDay(day)) count += 1;
    return count;
  }

  /** The first `count` working days from `origin` on: index i is the day at offset i. */
  workingDaysFrom(origin: DayNumber, count: number): DayNumber[] {
    const days: DayNumber[] = [];
    for (let day = this.firstWorkingDayFrom(origin); days.length < count; day += 1) {
      if (this.isWorkingDay(day)) days.push(day);
    }
    return days;
  }
}

/**
 * A calendar from a caller's description (tenant settings, a project's override), with the
 * defaults filled in. A bad description is 400 field_invalid naming the member at fault.
 */
export function workCalendar(input: CalendarInput = {}): WorkCalendar {
  const parsed = calendarSpecSchema.safeParse(input);
  if (parsed.success) return new WorkCalendar(parsed.data);
  const issue = parsed.error.issues[0];
  const field = ['calendar', ...(issue?.path ?? []).map(String)].join('.');
  throw new AppError('field_invalid', `${field}: ${issue?.message ?? 'not a valid calendar'}.`, { field });
}
