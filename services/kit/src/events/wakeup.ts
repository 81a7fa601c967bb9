// Waiting primitives for the consumer loops of the embedded event log and the outbox relay:
// a wake-up that cannot be lost, and a pause that stop() can cut short.

/**
 * A wake-up for one waiting loop. A notify() that arrives while nobody waits is remembered, so a
 * loop that checked for work, found none and is about to wait cannot miss the publish in between.
 */
export class Wakeup {
  private notified = false;
  private waiter: (() => void) | null = null;

  notify(): void {
    this.notified = true;
    this.waiter?.();
  }

  /** Resolves on the next notify (or at once if one is pending), or after timeoutMs when given. */
  wait(timeoutMs?: number): Promise<void> {
    if (this.notified) {
      this.notified = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (): void => {
        clearTimeout(timer);
        this.waiter = null;
        this.notified = false;
        resolve();
      };
      if (timeoutMs !== undefined) timer = setTimeout(finish, timeoutMs);
      this.waiter = finish;
    });
  }
}

/** Waits ms, or less if `signal` aborts; never rejects, so callers just re-check their state. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const finish = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    signal.addEventListener('abort', finish, { once: true });
  });
}

/** Exponential backoff: base, 2×base, 4×base, … capped so a long outage still retries regularly. */
export function backoffMs(baseMs: number, attempt: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
