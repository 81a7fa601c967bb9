// Why: both event logs hand a failing record back to its handler the same way: a record that can
// never succeed is dead-lettered with its reason, anything else waits with capped, jittered
// back-off for as long as it fails (failure-class.ts decides which). One policy, so a consumer
// behaves alike on the embedded log and on Kafka.
import { eventDeadLetters, eventRetries } from '../metrics.ts';
import { classifyFailure, describeError, type FailureClass } from './failure-class.ts';

export interface RetryPolicy {
  /** First delay after a failed attempt; doubles per attempt. */
  baseMs: number;
  /** The longest delay, however long the failure lasts: a dependency that comes back is used soon. */
  capMs: number;
  /** Attempts before an *unclassified* failure is dead-lettered; retryable ones never are. */
  maxAttempts: number;
}

export const DEFAULT_RETRY_BASE_MS = 200;
export const DEFAULT_RETRY_CAP_MS = 30_000;

export type RetryDecision =
  | { action: 'dead-letter'; failure: FailureClass; headers: Record<string, string> }
  | { action: 'retry'; failure: FailureClass; delayMs: number };

/** What to do after `attempt` (1-based) failed with `error`; counts the outcome in the metrics. */
export function decideAfterFailure(
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
  where: { group: string; topic: string },
): RetryDecision {
  const failure = classifyFailure(error);
  const labels = { group: where.group, topic: where.topic, class: failure };
  const giveUp = failure === 'permanent' || (failure === 'unclassified' && attempt >= policy.maxAttempts);
  if (giveUp) {
    eventDeadLetters.inc(labels);
    return { action: 'dead-letter', failure, headers: deadLetterReason(error, failure, attempt) };
  }
  eventRetries.inc(labels);
  return { action: 'retry', failure, delayMs: jitteredBackoffMs(policy.baseMs, attempt, policy.capMs) };
}

/** Why a record was set aside, as headers of its dead letter. */
export function deadLetterReason(
  error: unknown,
  failure: FailureClass,
  attempts: number,
): Record<string, string> {
  return {
    'x-error': describeError(error),
    'x-failure-class': failure,
    'x-attempts': String(attempts),
    'x-dead-lettered-at': new Date().toISOString(),
  };
}

/**
 * Exponential back-off with "equal jitter": between half and all of min(cap, base × 2^(attempt-1)),
 * so the consumers of a whole topology that lost one dependency do not all retry in step.
 */
export function jitteredBackoffMs(baseMs: number, attempt: number, capMs: number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
