// Leases held in memory, by the embedded store: the same take, renew and release the MongoDB
// store does with a document per lease (mongo/leases.ts), so the relay's one-publisher rule is
// tested here. A lease whose time ran out is free for anyone; its owner renews by taking it again.

interface Held {
  owner: string;
  until: number;
}

export class Leases {
  private readonly held = new Map<string, Held>();

  constructor(private readonly now: () => number = Date.now) {}

  acquire(name: string, owner: string, ttlMs: number): boolean {
    checkLease(name, owner, ttlMs);
    const now = this.now();
    const current = this.held.get(name);
    if (current !== undefined && current.owner !== owner && current.until > now) return false;
    this.held.set(name, { owner, until: now + ttlMs });
    return true;
  }

  release(name: string, owner: string): void {
    if (this.held.get(name)?.owner === owner) this.held.delete(name);
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
