// FIELDOPS_CAPTURE_LEASE_MS: how long a dead worker's run waits before another worker takes it.
import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@fieldops/kit';
import { drainMsFromEnv, leaseMsFromEnv } from '../src/worker/engines.ts';

describe('FIELDOPS_CAPTURE_LEASE_MS', () => {
  it("is the worker's default when unset, and the value when set", () => {
    expect(leaseMsFromEnv({})).toBeUndefined();
    expect(leaseMsFromEnv({ FIELDOPS_CAPTURE_LEASE_MS: ' 4000 ' })).toBe(4000);
  });

  it.each(['0', '999', '3600001', '1.5', 'soon'])('refuses %s, naming the variable', (value) => {
    expect(() => leaseMsFromEnv({ FIELDOPS_CAPTURE_LEASE_MS: value })).toThrow(ConfigError);
    expect(() => leaseMsFromEnv({ FIELDOPS_CAPTURE_LEASE_MS: value })).toThrow(/FIELDOPS_CAPTURE_LEASE_MS/);
  });
});

describe('FIELDOPS_CAPTURE_WORKER_DRAIN_MS', () => {
  it("is the worker's default when unset, and the value when set (0: hand back at once)", () => {
    expect(drainMsFromEnv({})).toBeUndefined();
    expect(drainMsFromEnv({ FIELDOPS_CAPTURE_WORKER_DRAIN_MS: ' 20000 ' })).toBe(20_000);
    expect(drainMsFromEnv({ FIELDOPS_CAPTURE_WORKER_DRAIN_MS: '0' })).toBe(0);
  });

  it.each(['-1', '3600001', '1.5', 'soon'])('refuses %s, naming the variable', (value) => {
    expect(() => drainMsFromEnv({ FIELDOPS_CAPTURE_WORKER_DRAIN_MS: value })).toThrow(
      /FIELDOPS_CAPTURE_WORKER_DRAIN_MS/,
    );
  });
});
