// The embedded store's unpublished outbox events and its counter per tenant (the ordering key).
// Pending events are handed to the relay in commit order, which is each tenant's seq order: all
// the port asks (a batch holding a tenant's event holds every earlier pending one of that tenant).
// The MongoDB store interleaves tenants by (seq, tenant) instead (docs/decisions.md, "Outbox order
// per tenant"); the relay and the contract suite rely only on the order within a tenant.
import type { OutboxPosition, OutboxRecord } from './port.js';

export class PendingOutbox {
  /** Pending events by positionKey; a Map keeps them in insertion (commit) order. */
  private readonly events = new Map<string, OutboxRecord>();
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
    this.events.set(positionKey(event), event);
    this.noteSeq(event.tenantId, event.seq);
  }

  /** Raises a tenant's counter to at least `seq` (a snapshot's counters, replayed events). */
  noteSeq(tenantId: string, seq: number): void {
    if (seq > (this.lastSeqs.get(tenantId) ?? 0)) this.lastSeqs.set(tenantId, seq);
  }

  remove(position: OutboxPosition): void {
    this.events.delete(positionKey(position));
  }

  /** A published journal entry of an older version: one global seq, unique across tenants. */
  removeGlobalSeq(seq: number): void {
    for (const [key, event] of this.events) if (event.seq === seq) this.events.delete(key);
  }

  /** The first `limit` pending events, in commit order. */
  first(limit: number): OutboxRecord[] {
    const records: OutboxRecord[] = [];
    for (const event of this.events.values()) {
      if (records.length >= limit) break;
      records.push(event);
    }
    return records;
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
