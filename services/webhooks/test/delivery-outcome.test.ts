// What one attempt's answer does to a delivery and its subscription (2xx, 410, 429, failures,
// the end of the schedule, manual retries).
import { describe, expect, it } from '@jest/globals';
import { decideOutcome, patched } from '../src/dispatch/delivery-outcome.ts';
import type { DeliveryDoc } from '../src/deliveries/delivery.model.ts';
import type { SubscriptionDoc } from '../src/subscriptions/subscription.model.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const schedule = { delaysMs: [1000, 2000], random: () => 0.5 };

const subscription = (extra: Partial<SubscriptionDoc> = {}): SubscriptionDoc => ({
  id: 'whk_1',
  tenantId: 'ten_1',
  version: 1,
  url: 'https://example.com/hook',
  eventTypes: [],
  status: 'enabled',
  secret: 'whsec_x',
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
  ...extra,
});

const delivery = (extra: Partial<DeliveryDoc> = {}): DeliveryDoc => ({
  id: 'dlv_1',
  tenantId: 'ten_1',
  version: 1,
  subscriptionId: 'whk_1',
  eventId: 'evt_1',
  eventType: 'lead.created',
  payload: '{}',
  status: 'pending',
  attemptCount: 0,
  attempts: [],
  nextAttemptAt: '2026-03-01T12:00:00.000Z',
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:00:00.000Z',
  ...extra,
});

const failedAttempt = (at: string) => ({ at, statusCode: 500, durationMs: 5, trigger: 'scheduled' as const });

describe('decideOutcome', () => {
  it('2xx: succeeded, and the endpoint’s failure streak and throttle end', () => {
    const sub = subscription({
      failingSince: '2026-03-01T11:00:00.000Z',
      throttledUntil: '2026-03-01T11:30:00.000Z',
    });
    const outcome = decideOutcome(delivery(), sub, { statusCode: 204, durationMs: 3 }, schedule, NOW);
    expect(outcome.delivery).toMatchObject({ status: 'succeeded', attemptCount: 1 });
    expect(outcome.delivery.nextAttemptAt).toBeUndefined();
    const after = patched(sub, outcome.subscription);
    expect(after.failingSince).toBeUndefined();
    expect(after.throttledUntil).toBeUndefined();
  });

  it('a failure is rescheduled on the schedule and starts the failure streak', () => {
    const outcome = decideOutcome(
      delivery(),
      subscription(),
      { statusCode: 500, durationMs: 3 },
      schedule,
      NOW,
    );
    expect(outcome.delivery.status).toBe('pending');
    expect(outcome.delivery.nextAttemptAt).toBe(new Date(NOW + 1000).toISOString());
    expect(outcome.subscription.failingSince).toBe(new Date(NOW).toISOString());
    expect(outcome.delivery.attempts[0]).toMatchObject({ statusCode: 500, trigger: 'scheduled' });
  });

  it('410: failed at once and the subscription disabled (gone)', () => {
    const outcome = decideOutcome(
      delivery(),
      subscription(),
      { statusCode: 410, durationMs: 3 },
      schedule,
      NOW,
    );
    expect(outcome.delivery.status).toBe('failed');
    expect(outcome.subscription).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
  });

  it('429 with Retry-After: the next attempt and the whole endpoint wait at least that long', () => {
    const result = { statusCode: 429, retryAfter: '30', durationMs: 3 };
    const outcome = decideOutcome(delivery(), subscription(), result, schedule, NOW);
    expect(outcome.delivery.nextAttemptAt).toBe(new Date(NOW + 30_000).toISOString());
    expect(outcome.subscription.throttledUntil).toBe(new Date(NOW + 30_000).toISOString());
    expect(outcome.subscription.status).toBeUndefined();
  });

  it('the end of the schedule: failed, and the endpoint disabled when it never succeeded since', () => {
    const first = '2026-03-01T11:59:57.000Z';
    const spent = delivery({
      attemptCount: 2,
      attempts: [failedAttempt(first), failedAttempt('2026-03-01T11:59:58.000Z')],
    });
    const outcome = decideOutcome(
      spent,
      subscription({ failingSince: first }),
      { statusCode: 503, durationMs: 3 },
      schedule,
      NOW,
    );
    expect(outcome.delivery).toMatchObject({ status: 'failed', attemptCount: 3 });
    expect(outcome.subscription).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
  });

  it('the end of the schedule after the endpoint succeeded meanwhile: failed, endpoint kept', () => {
    const spent = delivery({
      attemptCount: 2,
      attempts: [failedAttempt('2026-03-01T11:00:00.000Z'), failedAttempt('2026-03-01T11:30:00.000Z')],
    });
    // Another delivery succeeded at 11:10 and the streak restarted at 11:20.
    const sub = subscription({ failingSince: '2026-03-01T11:20:00.000Z' });
    const outcome = decideOutcome(spent, sub, { statusCode: 503, durationMs: 3 }, schedule, NOW);
    expect(outcome.delivery.status).toBe('failed');
    expect(outcome.subscription.status).toBeUndefined();
  });

  it('a manual retry that fails is failed again, not put back on the schedule', () => {
    const manual = delivery({ manual: true, attemptCount: 3 });
    const outcome = decideOutcome(manual, subscription(), { statusCode: 500, durationMs: 3 }, schedule, NOW);
    expect(outcome.delivery.status).toBe('failed');
    expect(outcome.delivery.manual).toBeUndefined();
    expect(outcome.delivery.attempts.at(-1)?.trigger).toBe('manual');
    expect(outcome.subscription.status).toBeUndefined();
  });
});
