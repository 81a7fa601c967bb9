// The working calendar a schedule runs on, as the caller (tenant settings, project, test) states
// it: which weekdays crews work, which dates are holidays, and the site's time zone. Parsing
// normalises it (weekdays in week order, holidays sorted, duplicates dropped), so the calendar
// echoed in a schedule reads the same however it was written.
import { CALENDAR_LIMITS } from '@fieldops/contracts';
import { z } from 'zod';
import { isKnownTimeZone, parseCalendarDate, WEEKDAYS, type Weekday } from './calendar-date.ts';

/** Enough for decades of public holidays; bounds the work a calendar can ask for. */
export const MAX_HOLIDAYS = CALENDAR_LIMITS.holidays;

export const calendarDateSchema = z
  .string()
  .refine((text) => parseCalendarDate(text) !== undefined, 'must be a calendar date such as 2025-03-14');

const inWeekOrder = (days: readonly Weekday[]): Weekday[] => WEEKDAYS.filter((day) => days.includes(day));

export const calendarSpecSchema = z.strictObject({
  timeZone: z
    .string()
    .refine(isKnownTimeZone, 'must be an IANA time zone such as Europe/London or America/Denver')
    .default('UTC')
    .describe("The site's time zone: it decides what date 'today' is at the site."),
  workingDays: z
    .array(z.enum(WEEKDAYS))
    .min(1, 'must name at least one working weekday')
    .max(7)
    .transform(inWeekOrder)
    .default(['mon', 'tue', 'wed', 'thu', 'fri'])
    .describe('Weekdays crews work; durations and lags count only these days.'),
  holidays: z
    .array(calendarDateSchema)
    .max(MAX_HOLIDAYS)
    .transform((dates) => [...new Set(dates)].sort())
    .default([])
    .describe('Dates nobody works (public holidays, shutdowns), on the site calendar.'),
});

/** A calendar as accepted: every member may be omitted and takes its default. */
export type CalendarInput = z.input<typeof calendarSpecSchema>;
/** A calendar after parsing: complete and normalised. */
export type CalendarSpec = z.output<typeof calendarSpecSchema>;

/** Monday to Friday, no holidays, UTC: the calendar of a project that states none. */
export const DEFAULT_CALENDAR: CalendarSpec = calendarSpecSchema.parse({});
