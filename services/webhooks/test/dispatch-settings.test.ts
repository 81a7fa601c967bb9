// The dispatcher's pacing from the environment: production defaults, and the overrides tests use.
import { describe, expect, it } from '@jest/globals';
import { DEFAULT_RETRY_DELAYS_MS } from '../src/deliveries/retry-schedule.ts';
import { dispatchSettingsFromEnv } from '../src/dispatch/dispatch-settings.ts';

describe('dispatchSettingsFromEnv', () => {
  it('defaults to the three-day schedule, a 15 s timeout and a lease longer than the timeout', () => {
    const settings = dispatchSettingsFromEnv(false, {});
    expect(settings.schedule.delaysMs).toEqual(DEFAULT_RETRY_DELAYS_MS);
    expect(settings.timeoutMs).toBe(15_000);
    expect(settings.leaseMs).toBeGreaterThan(settings.timeoutMs);
    expect(settings.allowPrivate).toBe(false);
    expect(settings).toMatchObject({
      concurrency: 8,
      tenantConcurrency: 2,
      maxHeaderBytes: 8192,
      maxSubscriptions: 25,
    });
  });

  it("keeps a tenant's share between one slot and all of them", () => {
    const over = dispatchSettingsFromEnv(false, {
      FIELDOPS_WEBHOOK_CONCURRENCY: '4',
      FIELDOPS_WEBHOOK_TENANT_CONCURRENCY: '9',
    });
    expect([over.concurrency, over.tenantConcurrency]).toEqual([4, 4]);
    const zero = dispatchSettingsFromEnv(false, { FIELDOPS_WEBHOOK_TENANT_CONCURRENCY: '0' });
    expect(zero.tenantConcurrency).toBe(1);
  });

  it('reads the overrides', () => {
    const settings = dispatchSettingsFromEnv(true, {
      FIELDOPS_WEBHOOK_RETRY_DELAYS_MS: '100, 200,300',
      FIELDOPS_WEBHOOK_TIMEOUT_MS: '2000',
      FIELDOPS_WEBHOOK_POLL_MS: '50',
      FIELDOPS_WEBHOOK_LEASE_MS: '4000',
    });
    expect(settings).toMatchObject({
      allowPrivate: true,
      schedule: { delaysMs: [100, 200, 300] },
      timeoutMs: 2000,
      pollMs: 50,
      leaseMs: 4000,
    });
  });

  it('refuses values that are not whole milliseconds, naming the variable', () => {
    expect(() => dispatchSettingsFromEnv(false, { FIELDOPS_WEBHOOK_RETRY_DELAYS_MS: '5s,1m' })).toThrow(
      /FIELDOPS_WEBHOOK_RETRY_DELAYS_MS/,
    );
    expect(() => dispatchSettingsFromEnv(false, { FIELDOPS_WEBHOOK_TIMEOUT_MS: '-1' })).toThrow(
      /FIELDOPS_WEBHOOK_TIMEOUT_MS/,
    );
  });
});
