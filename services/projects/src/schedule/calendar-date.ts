// Calendar dates (`YYYY-MM-DD`) as whole days since 1970-01-01. A schedule is about days on the
// site's wall calendar, never instants, so dates carry no time and no zone: arithmetic on day
// numbers cannot be shifted by a daylight-saving change or by the server's own zone. The one
// place a zone matters is "what date is it now at the site" (todayAt).

/** Days since 1970-01-01 (day 0, a Thursday). */
export type DayNumber = number;

const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The weekdays, in the order of Date#getUTCDay (Sunday first). */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The day number of a `YYYY-MM-DD` date, or undefined when it is not a real calendar date. */
export function parseCalendarDate(text: string): DayNumber | undefined {
  const match = ISO_DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  // Date.UTC rolls 2025-02-30 over into March; a round trip tells a real date from a rolled one.
  // (Date.UTC also maps years 0..99 to 1900..1999, which the round trip catches too.)
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? time / MS_PER_DAY : undefined;
}

/** `YYYY-MM-DD` of a day number (years 0000..9999). */
export function formatCalendarDate(day: DayNumber): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function weekdayOf(day: DayNumber): Weekday {
  // 1970-01-01 was a Thursday (index 4); the double modulo keeps days before 1970 positive.
  return WEEKDAYS[(((day + 4) % 7) + 7) % 7] as Weekday;
}

/** Today's date on the wall calendar of `timeZone` (an IANA name) at the instant `now`. */
export function todayAt(timeZone: string, now: Date = new Date()): string {
  // Read the parts rather than a formatted string: no locale's date order is relied upon.
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

/** Whether `timeZone` is an IANA zone name this runtime knows. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
