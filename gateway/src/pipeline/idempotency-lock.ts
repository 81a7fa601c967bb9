// Concurrent duplicates of one keyed write are serialised here, across gateway replicas, so the
// service sees them one after another and answers the second as a replay. The service's own
// idempotency record (stored with the change) is what makes the write exactly-once; the lock
// only spares it a race it would otherwise resolve by a unique-key conflict.
import { AppError, GATEWAY_ANSWER_MS } from '@fieldops/kit';
import type { FastState } from '@fieldops/kit/fast';

/** Longer than any gRPC call the write makes (config.ts refuses a deadline that is not). */
const LOCK_TTL_MS = GATEWAY_ANSWER_MS;
const WAIT_MS = 15_000;

export async function withKeyLock<T>(
  fast: FastState,
  tenantId: string,
  key: string,
  work: () => Promise<T>,
): Promise<T> {
  const lockKey = `idem:${tenantId}:${key}`;
  const deadline = Date.now() + WAIT_MS;
  let owner = await fast.acquireLock(lockKey, LOCK_TTL_MS);
  for (let pause = 5; !owner; pause = Math.min(pause * 2, 100)) {
    if (Date.now() > deadline) {
      throw new AppError(
        'conflict',
        'Another request with this idempotency key is still in progress; retry shortly.',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    owner = await fast.acquireLock(lockKey, LOCK_TTL_MS);
  }
  try {
    return await work();
  } finally {
    await fast.releaseLock(lockKey, owner);
  }
}
