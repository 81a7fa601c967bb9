// Delivery slots shared fairly between tenants. The dispatcher has a fixed number of slots for all
// tenants together; one tenant holds at most `tenantConcurrency` of them, and free slots are
// handed out round-robin across tenants (each tenant's oldest due entry first), so one tenant's
// slow or dripping targets hold only its own share and never starve another tenant's deliveries.
import type { QueueEntry } from '../deliveries/dispatch-queue.ts';

export interface SlotLimits {
  concurrency: number;
  tenantConcurrency: number;
}

/** Tenant → attempts in progress. */
export function busyByTenant(inFlight: Iterable<string>): Map<string, number> {
  const busy = new Map<string, number>();
  for (const tenantId of inFlight) busy.set(tenantId, (busy.get(tenantId) ?? 0) + 1);
  return busy;
}

/** Tenants already holding their whole share: the due-entry query leaves them out. */
export const saturatedTenants = (busy: Map<string, number>, limits: SlotLimits): string[] =>
  [...busy].filter(([, count]) => count >= limits.tenantConcurrency).map(([tenantId]) => tenantId);

/**
 * Which of the due entries (oldest first) to start now: one per tenant per round, in the order
 * each tenant's oldest entry came due, until the free slots or every tenant's share run out.
 */
export function pickFairly(
  due: readonly QueueEntry[],
  busy: Map<string, number>,
  limits: SlotLimits,
): QueueEntry[] {
  const queues = new Map<string, QueueEntry[]>();
  for (const entry of due) {
    const queue = queues.get(entry.deliveryTenantId) ?? [];
    queue.push(entry);
    queues.set(entry.deliveryTenantId, queue);
  }
  const taken = new Map(busy);
  const picked: QueueEntry[] = [];
  let free = limits.concurrency - [...busy.values()].reduce((sum, count) => sum + count, 0);
  let progress = true;
  while (free > 0 && progress) {
    progress = false;
    for (const [tenantId, queue] of queues) {
      const count = taken.get(tenantId) ?? 0;
      const next = queue.shift();
      if (!next || count >= limits.tenantConcurrency || free <= 0) continue;
      picked.push(next);
      taken.set(tenantId, count + 1);
      free -= 1;
      progress = true;
    }
  }
  return picked;
}
