// Fair relaying, shared by both stores: pending outbox events are handed out one per tenant per
// round, so a tenant with a big import waits its turn like everyone else (issue 34), and a tenant's
// own events keep their seq order. And where a tenant's counter starts: above every seq already
// stored for it, whatever version wrote those (older versions counted one global seq).
import type { OutboxRecord } from './port.ts';

export interface TenantQueue {
  tenantId: string;
  /** The tenant's pending records, in seq order. */
  records: Iterator<OutboxRecord>;
}

/** Up to `limit` records: each queue's first, then each one's second, and so on. */
export function roundRobin(queues: TenantQueue[], limit: number): OutboxRecord[] {
  const taken: OutboxRecord[] = [];
  let open = queues;
  while (open.length > 0 && taken.length < limit) {
    const next: TenantQueue[] = [];
    for (const queue of open) {
      if (taken.length >= limit) break;
      const step = queue.records.next();
      if (step.done === true) continue;
      taken.push(step.value);
      next.push(queue);
    }
    open = next;
  }
  return taken;
}

/** The value a tenant's counter must hold at least, so its next seq is above every stored one. */
export function counterFloor(current: number, highestStored: number | undefined): number {
  return Math.max(current, highestStored ?? 0);
}
