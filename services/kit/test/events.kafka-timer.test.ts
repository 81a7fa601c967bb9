// kafkajs's request queue, as the Kafka event log runs it: its idle check is scheduled without the
// negative delay that makes Node 24 print a TimeoutNegativeWarning into every Kafka process's log
// (src/events/kafka/request-queue-timer.ts). No broker needed.
import { createRequire } from 'node:module';
import { jest } from '@jest/globals';
import { patchKafkaRequestQueueTimer } from '../src/events/kafka/request-queue-timer.js';

const require = createRequire(import.meta.url);

interface Queue {
  throttledUntil: number;
  pending: unknown[];
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  scheduleCheckPendingRequests(): void;
  destroy(): void;
}
type QueueClass = new (options: Record<string, unknown>) => Queue;

function newQueue(): Queue {
  const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as QueueClass;
  const logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  return new RequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 1000,
    clientId: 't',
    broker: 'b',
    logger,
  });
}

describe('the Kafka request queue timer', () => {
  test('patches the pinned kafkajs, once', () => {
    expect(patchKafkaRequestQueueTimer()).toBe(true);
    expect(patchKafkaRequestQueueTimer()).toBe(true);
  });

  test('an idle, unthrottled queue schedules its check after 1 ms, not after minus the epoch', () => {
    patchKafkaRequestQueueTimer();
    const delays: (number | undefined)[] = [];
    const spy = jest.spyOn(globalThis, 'setTimeout').mockImplementation(((_fn: () => void, ms?: number) => {
      delays.push(ms);
      return { unref() {} } as unknown as ReturnType<typeof setTimeout>;
    }) as typeof setTimeout);
    try {
      const idle = newQueue();
      idle.scheduleCheckPendingRequests();
      // Throttled for another 500 ms: the check waits for the end of the throttle, as before.
      const throttled = newQueue();
      throttled.throttledUntil = Date.now() + 500;
      throttled.scheduleCheckPendingRequests();
      // Requests waiting and no throttle: kafkajs's own 10 ms interval, as before.
      const waiting = newQueue();
      waiting.pending.push({});
      waiting.scheduleCheckPendingRequests();
    } finally {
      spy.mockRestore();
    }
    expect(delays[0]).toBe(1);
    expect(delays[1]).toBeGreaterThan(400);
    expect(delays[1]).toBeLessThanOrEqual(500);
    expect(delays[2]).toBe(10);
  });
});
