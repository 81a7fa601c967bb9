// What one attempt's answer does to the delivery and to its subscription. Pure, so the rules are
// tested without a network:
// - 2xx: delivered; the endpoint's failure streak and any throttle end.
// - 410 Gone: the receiver says the endpoint no longer exists: the delivery fails and the
//   subscription is disabled (reason gone); nothing more is sent until someone enables it.
// - 429: a failed attempt; the next one waits at least Retry-After, and the whole endpoint is
//   held back until then (throttledUntil), so its other deliveries slow down too.
// - anything else (5xx, 3xx, 4xx, no answer): retried on the schedule; when the schedule is used
//   up the delivery fails, and if the endpoint has not succeeded once since this delivery first
//   failed (about three days of failure) the subscription is disabled (reason failing).
// A manual retry is a single attempt: if it fails the delivery is failed again.
import { WEBHOOK_DELIVERY_STATUS_MACHINE, WEBHOOK_SUBSCRIPTION_STATUS_MACHINE } from '@fieldops/contracts';
import type { AttemptResult } from './send-attempt.ts';
import type { SubscriptionDoc } from '../subscriptions/subscription.model.ts';
import { KEPT_ATTEMPTS, type DeliveryDoc } from '../deliveries/delivery.model.ts';
import {
  MAX_RETRY_AFTER_MS,
  nextDelayMs,
  parseRetryAfter,
  type RetrySchedule,
} from '../deliveries/retry-schedule.ts';

/** What the platform moves a subscription to when its endpoint is gone or keeps failing. */
const DISABLED = WEBHOOK_SUBSCRIPTION_STATUS_MACHINE.destination('disable');

/** Fields of the subscription an attempt changes (undefined removes the field). */
export type SubscriptionPatch = Partial<
  Pick<SubscriptionDoc, 'status' | 'disabledReason' | 'disabledAt' | 'failingSince' | 'throttledUntil'>
>;

export interface Outcome {
  delivery: DeliveryDoc;
  subscription: SubscriptionPatch;
}

const iso = (ms: number): string => new Date(ms).toISOString();

function withAttempt(delivery: DeliveryDoc, result: AttemptResult, now: number): DeliveryDoc {
  const attempt = {
    at: iso(now),
    statusCode: result.statusCode,
    ...(result.error ? { error: result.error } : {}),
    durationMs: result.durationMs,
    trigger: delivery.manual ? ('manual' as const) : ('scheduled' as const),
  };
  return {
    ...delivery,
    attemptCount: delivery.attemptCount + 1,
    attempts: [...delivery.attempts, attempt].slice(-KEPT_ATTEMPTS),
    updatedAt: iso(now),
  };
}

function finished(delivery: DeliveryDoc, trigger: 'succeed' | 'fail'): DeliveryDoc {
  const { nextAttemptAt: _next, manual: _manual, ...rest } = delivery;
  return { ...rest, status: WEBHOOK_DELIVERY_STATUS_MACHINE.destination(trigger) };
}

/** When this delivery first failed: the streak must be at least that old to disable the endpoint. */
const firstFailureOf = (delivery: DeliveryDoc): string | undefined =>
  delivery.attempts.find((attempt) => attempt.statusCode < 200 || attempt.statusCode >= 300)?.at;

export function decideOutcome(
  delivery: DeliveryDoc,
  subscription: SubscriptionDoc,
  result: AttemptResult,
  schedule: RetrySchedule,
  now: number,
): Outcome {
  const attempted = withAttempt(delivery, result, now);
  if (result.statusCode >= 200 && result.statusCode < 300) {
    return {
      delivery: finished(attempted, 'succeed'),
      subscription: { failingSince: undefined, throttledUntil: undefined },
    };
  }
  const failingSince = subscription.failingSince ?? iso(now);
  if (result.statusCode === 410) {
    return {
      delivery: finished(attempted, 'fail'),
      subscription: { status: DISABLED, disabledReason: 'gone', disabledAt: iso(now), failingSince },
    };
  }
  const retryAfterMs = result.statusCode === 429 ? parseRetryAfter(result.retryAfter, now) : undefined;
  const throttle =
    retryAfterMs === undefined
      ? {}
      : { throttledUntil: iso(now + Math.min(retryAfterMs, MAX_RETRY_AFTER_MS)) };
  const delay = delivery.manual ? null : nextDelayMs(schedule, attempted.attemptCount, retryAfterMs);
  if (delay !== null) {
    return {
      delivery: {
        ...attempted,
        status: WEBHOOK_DELIVERY_STATUS_MACHINE.destination('reschedule'),
        nextAttemptAt: iso(now + delay),
      },
      subscription: { failingSince, ...throttle },
    };
  }
  const firstFailure = firstFailureOf(attempted) ?? iso(now);
  const persistent = !delivery.manual && failingSince <= firstFailure;
  return {
    delivery: finished(attempted, 'fail'),
    subscription: persistent
      ? { failingSince, ...throttle, status: DISABLED, disabledReason: 'failing', disabledAt: iso(now) }
      : { failingSince, ...throttle },
  };
}

/** The subscription with the patch applied (an undefined value removes the field). */
export function patched(subscription: SubscriptionDoc, patch: SubscriptionPatch): SubscriptionDoc {
  const next: SubscriptionDoc = { ...subscription };
  for (const [field, value] of Object.entries(patch) as [keyof SubscriptionPatch, string | undefined][]) {
    if (value === undefined) delete next[field];
    else (next as Record<string, unknown>)[field] = value;
  }
  return next;
}
