// kafkajs 2.2.4 (its last release) schedules its request queue's next check with
// `setTimeout(check, throttledUntil - Date.now())`, and `throttledUntil` is -1 until a broker
// throttles, so that delay is minus the epoch. Node has always run such a timer after 1 ms; from
// Node 24 it also prints a TimeoutNegativeWarning (kafkajs issues #1751, #1704; unfixed upstream),
// into every Kafka process's log. This replaces that one method with the same logic and the delay
// clamped to 1 ms, which is what Node ran before: no behaviour changes, only the warning goes.
// It patches only the version it was written against, and only when the method is the one
// expected; otherwise it leaves kafkajs alone (test/events.kafka-timer.test.ts fails then).
import { createRequire } from 'node:module';

interface RequestQueueInternals {
  throttledUntil: number;
  pending: unknown[];
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** kafkajs's RequestQueue's constant of the same name. */
const CHECK_PENDING_REQUESTS_INTERVAL = 10;
const PATCHED_VERSION = '2.2.4';
/** The line the replaced method computes its delay with. */
const EXPECTED_SOURCE = 'let scheduleAt = this.throttledUntil - Date.now()';

function scheduleCheckPendingRequests(this: RequestQueueInternals): void {
  let scheduleAt = this.throttledUntil - Date.now();
  if (!this.throttleCheckTimeoutId) {
    if (this.pending.length > 0) {
      scheduleAt = scheduleAt > 0 ? scheduleAt : CHECK_PENDING_REQUESTS_INTERVAL;
    }
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      Math.max(1, scheduleAt),
    );
  }
}

/** Whether kafkajs's request queue now schedules without negative delays. */
export function patchKafkaRequestQueueTimer(): boolean {
  const require = createRequire(import.meta.url);
  const { version } = require('kafkajs/package.json') as { version: string };
  const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as {
    prototype: RequestQueueInternals;
  };
  const proto = RequestQueue.prototype;
  if (proto.scheduleCheckPendingRequests === scheduleCheckPendingRequests) return true;
  if (version !== PATCHED_VERSION) return false;
  if (!String(proto.scheduleCheckPendingRequests).includes(EXPECTED_SOURCE)) return false;
  proto.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  return true;
}
