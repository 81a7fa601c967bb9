// How the dispatcher paces itself. Defaults are for production; tests and local development make
// the retry schedule fast through the environment, so a test of retries takes seconds, not days.
//   FIELDOPS_WEBHOOK_RETRY_DELAYS_MS  comma-separated delays between attempts (default: ~3 days)
//   FIELDOPS_WEBHOOK_TIMEOUT_MS       the total deadline of one attempt, from connect to the answer's
//                                     status and headers (default 15000); not an idle timeout
//   FIELDOPS_WEBHOOK_MAX_HEADER_BYTES the largest answer header accepted (default 8192)
//   FIELDOPS_WEBHOOK_POLL_MS          how often due retries are looked for (default 1000)
//   FIELDOPS_WEBHOOK_LEASE_MS         how long a killed dispatcher's claim holds (default timeout + 30 s)
//   FIELDOPS_WEBHOOK_CONCURRENCY      delivery attempts at once, all tenants together (default 8)
//   FIELDOPS_WEBHOOK_TENANT_CONCURRENCY  of those, at most this many for one tenant (default 2)
//   FIELDOPS_WEBHOOK_MAX_SUBSCRIPTIONS   subscriptions one tenant may hold (default 25)
import { DEFAULT_RETRY_DELAYS_MS, type RetrySchedule } from '../deliveries/retry-schedule.ts';
import { wholeNumberFromEnv } from '@fieldops/kit';

export interface DispatchSettings {
  allowPrivate: boolean;
  schedule: RetrySchedule;
  timeoutMs: number;
  pollMs: number;
  /** How long a claimed delivery is held before another dispatcher may take it over. */
  leaseMs: number;
  /** Deliveries attempted at once, every tenant together. */
  concurrency: number;
  /** Of those, at most this many for one tenant: a slow tenant's targets cannot take every slot. */
  tenantConcurrency: number;
  /** The largest answer header (status line and headers) a target may send, in bytes. */
  maxHeaderBytes: number;
  /** Subscriptions one tenant may hold. */
  maxSubscriptions: number;
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
  const concurrency = Math.max(1, wholeNumberFromEnv(env, 'FIELDOPS_WEBHOOK_CONCURRENCY', 8, 'attempts'));
  return {
    allowPrivate,
    schedule: { delaysMs: delays(env) },
    timeoutMs,
    pollMs: wholeNumberFromEnv(env, 'FIELDOPS_WEBHOOK_POLL_MS', 1000, 'milliseconds'),
    leaseMs: wholeNumberFromEnv(env, 'FIELDOPS_WEBHOOK_LEASE_MS', timeoutMs + 30_000, 'milliseconds'),
    concurrency,
    // Never above the global slots, never zero: every tenant always gets a slot in turn.
    tenantConcurrency: Math.max(
      1,
      Math.min(concurrency, wholeNumberFromEnv(env, 'FIELDOPS_WEBHOOK_TENANT_CONCURRENCY', 2, 'attempts')),
    ),
    maxHeaderBytes: wholeNumberFromEnv(env, 'FIELDOPS_WEBHOOK_MAX_HEADER_BYTES', 8192, 'bytes'),
    maxSubscriptions: wholeNumberFromEnv(env, 'FIELDOPS_WEBHOOK_MAX_SUBSCRIPTIONS', 25, 'subscriptions'),
  };
}
