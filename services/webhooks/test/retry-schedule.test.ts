// The production retry schedule: exponential-ish backoff with jitter over about three days, and
// how a 429's Retry-After stretches it.
import { describe, expect, it } from '@jest/globals';
import {
  DEFAULT_RETRY_DELAYS_MS,
  JITTER,
  MAX_RETRY_AFTER_MS,
  maxAttempts,
  nextDelayMs,
  parseRetryAfter,
} from '../src/deliveries/retry-schedule.ts';

const HOUR = 3600_000;
const fixed = (value: number) => ({ delaysMs: DEFAULT_RETRY_DELAYS_MS, random: () => value });

describe('the default schedule', () => {
  it('spreads ten attempts over about three days, each wait longer than the one before', () => {
    const total = DEFAULT_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThan(2.9 * 24 * HOUR);
    expect(total).toBeLessThan(3.3 * 24 * HOUR);
    expect(maxAttempts({ delaysMs: DEFAULT_RETRY_DELAYS_MS })).toBe(10);
    for (let i = 1; i < DEFAULT_RETRY_DELAYS_MS.length; i++) {
      expect(DEFAULT_RETRY_DELAYS_MS[i]).toBeGreaterThan(DEFAULT_RETRY_DELAYS_MS[i - 1] as number);
    }
    expect(DEFAULT_RETRY_DELAYS_MS[0]).toBe(5000);
  });

  it('jitters each wait by at most ±10% and gives up after the last one', () => {
    const base = DEFAULT_RETRY_DELAYS_MS[3] as number;
    expect(nextDelayMs(fixed(0), 4)).toBe(Math.round(base * (1 - JITTER)));
    expect(nextDelayMs(fixed(0.5), 4)).toBe(base);
    expect(nextDelayMs(fixed(0.999999), 4)).toBeLessThanOrEqual(Math.round(base * (1 + JITTER)));
    expect(nextDelayMs(fixed(0.5), DEFAULT_RETRY_DELAYS_MS.length)).toBe(24 * HOUR);
    expect(nextDelayMs(fixed(0.5), DEFAULT_RETRY_DELAYS_MS.length + 1)).toBeNull();
  });

  it('spreads endpoints that failed together (different random draws give different waits)', () => {
    const draws = [0.1, 0.4, 0.7, 0.95].map((value) => nextDelayMs(fixed(value), 2));
    expect(new Set(draws).size).toBe(draws.length);
  });
});

describe('Retry-After', () => {
  it('stretches a shorter wait, never shortens a longer one, and is capped at a day', () => {
    expect(nextDelayMs(fixed(0.5), 1, 60_000)).toBe(60_000);
    expect(nextDelayMs(fixed(0.5), 5, 60_000)).toBe(DEFAULT_RETRY_DELAYS_MS[4]);
    expect(nextDelayMs(fixed(0.5), 1, 10 * 24 * HOUR)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('reads delta-seconds and HTTP dates; ignores what it cannot read', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
