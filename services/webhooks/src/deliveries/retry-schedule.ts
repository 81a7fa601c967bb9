// When a failed delivery is tried again. The delays grow roughly exponentially and add up to
// about three days (75.6 hours before jitter), after which the delivery is given up. Each delay is
// jittered by up to ±JITTER of itself so endpoints that failed together do not recover into a
// thundering herd. A 429's Retry-After is honoured when it asks for longer than the schedule.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay before attempt n+2 after attempt n+1 failed (the first attempt is immediate). */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

export const JITTER = 0.1;

/** The longest a 429's Retry-After may hold an endpoint back (a day). */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

export interface RetrySchedule {
  delaysMs: readonly number[];
  /** A number in [0, 1); Math.random by default, fixed in tests. */
  random?: () => number;
}

/** Attempts a delivery gets before it is given up: the first one plus one per delay. */
export const maxAttempts = (schedule: RetrySchedule): number => schedule.delaysMs.length + 1;

/**
 * Milliseconds to wait after the given (1-based) attempt failed, or null when it was the last.
 * `retryAfterMs` (from a 429) stretches the wait; it never shortens it.
 */
export function nextDelayMs(
  schedule: RetrySchedule,
  attemptsMade: number,
  retryAfterMs?: number,
): number | null {
  const base = schedule.delaysMs[attemptsMade - 1];
  if (base === undefined) return null;
  const random = schedule.random ?? Math.random;
  const jittered = Math.round(base * (1 + JITTER * (2 * random() - 1)));
  const floor = retryAfterMs === undefined ? 0 : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return Math.max(jittered, floor);
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * SECOND;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
