// The embedded store's unpublished outbox events and its counter per tenant (the ordering key).
// Pending events are handed to the relay round-robin across tenants, each tenant's in seq order
// (its commit order): one tenant's big import does not hold back another's events, and a batch
// holding a tenant's event holds every earlier pending one of that tenant (all the port asks).
// The MongoDB store takes its turns the same way (fair-turns.ts).
import { counterFloor, roundRobin } from './fair-turns.ts';
import type { OutboxPosition, OutboxRecord } from './port.ts';

export class PendingOutbox {
  /** Pending events by positionKey; a Map keeps them in insertion (commit) order. */
  private readonly events = new Map<string, OutboxRecord>();
  /** The same events per tenant, each in seq order; a tenant with none pending has no entry. */
  private readonly byTenant = new Map<string, Map<string, OutboxRecord>>();
  /** Each tenant's last outbox seq, published or not. */
  private readonly lastSeqs = new Map<string, number>();

  /** The seq of the next event of `tenantId`, `offset` events further on. */
  nextSeq(tenantId: string, offset = 0): number {
    return (this.lastSeqs.get(tenantId) ?? 0) + 1 + offset;
  }

  has(position: OutboxPosition): boolean {
    return this.events.has(positionKey(position));
  }

  add(event: OutboxRecord): void {
    const key = positionKey(event);
    this.events.set(key, event);
    let queue = this.byTenant.get(event.tenantId);
    if (queue === undefined) this.byTenant.set(event.tenantId, (queue = new Map()));
    queue.set(key, event);
    this.noteSeq(event.tenantId, event.seq);
  }

  /** Raises a tenant's counter to at least `seq` (a snapshot's counters, replayed events). */
  noteSeq(tenantId: string, seq: number): void {
    this.lastSeqs.set(tenantId, counterFloor(this.lastSeqs.get(tenantId) ?? 0, seq));
  }

  remove(position: OutboxPosition): void {
    const key = positionKey(position);
    if (!this.events.delete(key)) return;
    const queue = this.byTenant.get(position.tenantId);
    queue?.delete(key);
    if (queue?.size === 0) this.byTenant.delete(position.tenantId);
  }

  /** A published journal entry of an older version: one global seq, unique across tenants. */
  removeGlobalSeq(seq: number): void {
    for (const event of [...this.events.values()]) if (event.seq === seq) this.remove(event);
  }

  /**
   * The first `limit` pending events, taken round-robin across tenants. Tenants served move to the
   * back of the line, so with more tenants pending than `limit` the next call starts with others.
   */
  first(limit: number): OutboxRecord[] {
    const taken = roundRobin(
      [...this.byTenant].map(([tenantId, queue]) => ({ tenantId, records: queue.values() })),
      limit,
    );
    for (const tenantId of new Set(taken.map((record) => record.tenantId))) {
      const queue = this.byTenant.get(tenantId);
      if (queue === undefined) continue;
      this.byTenant.delete(tenantId);
      this.byTenant.set(tenantId, queue);
    }
    return taken;
  }

  /** Every pending event in commit order (for snapshots, which keep that order). */
  all(): IterableIterator<OutboxRecord> {
    return this.events.values();
  }

  /** Each tenant's counter, for the snapshot header. */
  counters(): [string, number][] {
    return [...this.lastSeqs];
  }
}

function positionKey({ tenantId, seq }: OutboxPosition): string {
  return `${seq}\u0000${tenantId}`;
}
