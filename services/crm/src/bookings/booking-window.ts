// A booking's window: two instants, checked and normalised so that stored windows compare as
// strings. Windows are half-open [start, end): a visit ending at 10:00 and one starting at 10:00
// do not clash.
import { AppError } from '@fieldops/kit';

/** The longest window one booking may hold (a visit is at most a day). */
export const MAX_WINDOW_MINUTES = 24 * 60;
/** How far ahead a window may start. */
export const MAX_LEAD_DAYS = 366;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** An RFC 3339 date-time with an explicit offset: a window is an instant, never local time. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

export interface Window {
  startMs: number;
  endMs: number;
}

export const isoOf = (ms: number): string => new Date(ms).toISOString();

/** The instant `value` names, or field_invalid naming `field`. */
export function parseInstant(value: string | undefined, field: string): number {
  const text = value?.trim() ?? '';
  if (!text) throw new AppError('field_required', `${field} is required: an ISO 8601 date-time.`, { field });
  const ms = DATE_TIME.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new AppError(
      'field_invalid',
      `${field} must be an ISO 8601 date-time with an offset, such as 2026-05-04T09:00:00Z.`,
      { field },
    );
  }
  return ms;
}

/** A requested window: end after start, at most a day long, starting in the future (within a year). */
export function requestedWindow(start: string, end: string, nowMs: number): Window {
  const window = { startMs: parseInstant(start, 'start'), endMs: parseInstant(end, 'end') };
  if (window.endMs <= window.startMs) throw invalid('end', 'end must be after start.');
  if (window.endMs - window.startMs > MAX_WINDOW_MINUTES * MINUTE_MS) {
    throw invalid('end', `A booking window is at most ${MAX_WINDOW_MINUTES / 60} hours long.`);
  }
  if (window.startMs <= nowMs) {
    throw invalid('start', 'start must be in the future: a visit cannot be booked into the past.');
  }
  if (window.startMs > nowMs + MAX_LEAD_DAYS * DAY_MS) {
    throw invalid('start', `start must be within ${MAX_LEAD_DAYS} days from now.`);
  }
  return window;
}

export const windowOf = (doc: { start: string; end: string }): Window => ({
  startMs: Date.parse(doc.start),
  endMs: Date.parse(doc.end),
});

export const overlaps = (a: Window, b: Window): boolean => a.startMs < b.endMs && b.startMs < a.endMs;

export const minutesOf = (window: Window): number => Math.round((window.endMs - window.startMs) / MINUTE_MS);

const invalid = (field: string, sentence: string): AppError =>
  new AppError('field_invalid', sentence, { field });
