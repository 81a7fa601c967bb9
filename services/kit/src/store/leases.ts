// Leases held in memory, by the embedded store: the same take, renew and release the MongoDB
// store does with a document per lease (mongo/leases.ts), so the relay's one-publisher rule is
// tested here. A lease whose time ran out is free for anyone; its owner renews by taking it again.
// Each lease counts generations (the fencing token): taking it anew, after it ran out or was
// released, starts the next one; a renewal keeps it. The count outlives a release.
import type { LeaseFence, LeaseGrant } from './port.ts';

interface Held {
  owner: string;
  until: number;
  generation: number;
}

export class Leases {
  private readonly held = new Map<string, Held>();

  private readonly now: () => number;
  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  acquire(name: string, owner: string, ttlMs: number): LeaseGrant | null {
    checkLease(name, owner, ttlMs);
    const now = this.now();
    const current = this.held.get(name);
    const running = current !== undefined && current.until > now;
    if (running && current.owner !== owner) return null;
    const generation = running ? current.generation : (current?.generation ?? 0) + 1;
    this.held.set(name, { owner, until: now + ttlMs, generation });
    return { generation };
  }

  /** Releasing ends the lease's time but keeps its generation, so the next taker gets a new one. */
  release(name: string, owner: string): void {
    const current = this.held.get(name);
    if (current?.owner === owner) current.until = 0;
  }

  /** Whether the fence's owner still holds its generation (its time may have run out unclaimed). */
  holds({ name, owner, generation }: LeaseFence): boolean {
    const current = this.held.get(name);
    return current?.owner === owner && current.generation === generation;
  }
}

/** The same programmer errors refused by both stores. */
export function checkLease(name: unknown, owner: unknown, ttlMs: unknown): void {
  if (typeof name !== 'string' || name === '') throw new Error('a lease needs a name');
  if (typeof owner !== 'string' || owner === '') throw new Error('a lease needs an owner');
  if (typeof ttlMs !== 'number' || !Number.isInteger(ttlMs) || ttlMs < 1) {
    throw new RangeError(`a lease lasts a whole number of milliseconds, at least 1, not ${String(ttlMs)}`);
  }
}
