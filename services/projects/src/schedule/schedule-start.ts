// The `start` query parameter of GET /projects/:id/schedule. The spec: a date, not a date-time
// (an ISO date-time is rejected), echoed back in the form sent. Only `YYYY-MM-DD` is a date
// here; anything else, a date-time included, is field_invalid with a sentence saying what to send.
import { AppError } from '@fieldops/kit';
import { z } from 'zod';
import { parseCalendarDate } from './calendar-date.ts';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]/i;

/** Why `text` is not a schedule start, or undefined when it is one. */
export function scheduleStartProblem(text: string): string | undefined {
  if (parseCalendarDate(text) !== undefined) return undefined;
  if (DATE_TIME.test(text)) return `must be a date such as ${text.slice(0, 10)}, not a date-time`;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `is not a day of the calendar (${text})`;
  return 'must be a date in the form YYYY-MM-DD, such as 2025-03-14';
}

/**
 * The query schema member. Its issue is a custom one, which the gateway's parseInput maps to
 * field_invalid (not field_invalid_enum or field_required), naming `start`.
 */
export const scheduleStartSchema = z
  .string()
  .superRefine((text, ctx) => {
    const problem = scheduleStartProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('First day of the plan, as a date (YYYY-MM-DD); a date-time is refused. Echoed back as sent.');

/** The service's own check of `start` (the gateway validates first; this is the backstop). */
export function parseScheduleStart(text: string): string {
  const problem = scheduleStartProblem(text);
  if (problem) throw new AppError('field_invalid', `start ${problem}.`, { field: 'start' });
  return text;
}
