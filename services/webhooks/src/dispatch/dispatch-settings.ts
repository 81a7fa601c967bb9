// How the dispatcher paces itself. Defaults are for production; tests and local development make
// the retry schedule fast through the environment, so a test of retries takes seconds, not days.
//   FIELDOPS_WEBHOOK_RETRY_DELAYS_MS  comma-separated delays between attempts (default: ~3 days)
//   FIELDOPS_WEBHOOK_TIMEOUT_MS       how long one attempt may take (default 15000)
//   FIELDOPS_WEBHOOK_POLL_MS          how often due retries are looked for (default 1000)
//   FIELDOPS_WEBHOOK_LEASE_MS         how long a killed dispatcher's claim holds (default timeout + 30 s)
import { DEFAULT_RETRY_DELAYS_MS, type RetrySchedule } from '../deliveries/retry-schedule.js';
import { wholeNumberFromEnv } from '@fieldops/kit';

export interface DispatchSettings {
  allowPrivate: boolean;
  schedule: RetrySchedule;
  timeoutMs: number;
  pollMs: number;
  /** How long a claimed delivery is held before another dispatcher may take it over. */
  leaseMs: number;
  /** Deliveries attempted at once. */
  concurrency: number;
}

function delays(env: NodeJS.ProcessEnv): readonly number[] {
  const raw = env['FIELDOPS_WEBHOOK_RETRY_DELAYS_MS']?.trim();
  if (!raw) return DEFAULT_RETRY_DELAYS_MS;
  const parts = raw.split(',').map((part) => part.trim());
  if (!parts.every((part) => /^\d+$/.test(part))) {
    throw new Error('FIELDOPS_WEBHOOK_RETRY_DELAYS_MS must be comma-separated whole milliseconds.');
  }
  return parts.map(Number);
}

export function dispatchSettingsFromEnv(
  allowPrivate: boolean,
  env: NodeJS.ProcessEnv = process.env,
): DispatchSettings {
  const timeoutMs = wholeNumberFromEnv(env, 'FIELDOPS_WEBHOOK_TIMEOUT_MS', 15_000, 'milliseconds');
  return {
    allowPrivate,
    schedule: { delaysMs: delays(env) },
    timeoutMs,
    pollMs: wholeNumberFromEnv(env, 'FIELDOPS_WEBHOOK_POLL_MS', 1000, 'milliseconds'),
    leaseMs: wholeNumberFromEnv(env, 'FIELDOPS_WEBHOOK_LEASE_MS', timeoutMs + 30_000, 'milliseconds'),
    concurrency: 8,
  };
}
