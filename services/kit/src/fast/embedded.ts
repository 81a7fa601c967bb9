// The embedded fast-state adapter: in-process maps with the same semantics as the Redis adapter,
// for a single gateway process (dev, tests, small installs). Every operation runs synchronously
// inside one call, so it is atomic by construction on Node's single thread.
import { randomUUID } from 'node:crypto';
import type { BucketResult, BudgetResult, BudgetWindow, FastState } from './port.ts';
import { checkBucketArgs, checkBudgetArgs, checkTtl } from './args.ts';

/** How often expired entries nobody reads again are dropped (reads also drop them lazily). */
const SWEEP_INTERVAL_MS = 30_000;
/** Absorbs floating-point drift in refill arithmetic so 0.9999999 tokens count as 1. */
const TOKEN_EPSILON = 1e-9;

interface Expiring {
  expiresAt: number;
}

interface Bucket extends Expiring {
  tokens: number;
  at: number;
}

interface Window extends Expiring {
  start: number;
  used: number;
}

interface Stored extends Expiring {
  value: string;
}

/** A map whose entries vanish at `expiresAt`, checked on read and by sweep(). */
class ExpiringMap<V extends Expiring> {
  private readonly entries = new Map<string, V>();

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.expiresAt > now) return entry;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, entry: V): void {
    this.entries.set(key, entry);
  }

  delete(key: string): boolean {
    return this.entries.delete(key);
  }

  sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

export function createEmbeddedFastState(options: { now?: () => number } = {}): FastState {
  // Read the clock through Date on every call (not a captured Date.now), so a test that moves
  // the system time moves expiries with it.
  const now = options.now ?? (() => Date.now());
  // One map per kind so a lock, a bucket and a value under the same key never collide (the Redis
  // adapter namespaces its keys the same way).
  const buckets = new ExpiringMap<Bucket>();
  const windows = new ExpiringMap<Window>();
  const locks = new ExpiringMap<Stored>();
  const values = new ExpiringMap<Stored>();
  const maps = [buckets, windows, locks, values];
  let closed = false;

  const sweeper = setInterval(() => {
    const at = now();
    for (const map of maps) map.sweep(at);
  }, SWEEP_INTERVAL_MS);
  // The sweeper is housekeeping only; it must never keep the process alive.
  sweeper.unref();

  /** Returns the current time, refusing work after close() like a quit Redis connection does. */
  function open(): number {
    if (closed) throw new Error('Fast state is closed.');
    return now();
  }

  function storeValue(map: ExpiringMap<Stored>, key: string, value: string, ttlMs: number, at: number): void {
    map.set(key, { value, expiresAt: at + wholeTtl(ttlMs) });
  }

  return {
    async takeToken(key, capacity, refillPerSecond, cost = 1) {
      checkBucketArgs(capacity, refillPerSecond, cost);
      const at = open();
      const bucket = buckets.get(key, at);
      const tokens = bucket === undefined ? capacity : refill(bucket, capacity, refillPerSecond, at);
      const result = takeFrom(tokens, refillPerSecond, cost);
      if (result.allowed) {
        buckets.set(key, {
          tokens: result.tokens,
          at,
          expiresAt: at + msUntilFull(result.tokens, capacity, refillPerSecond),
        });
      }
      return result.reply;
    },

    async spendBudget(key, limit, windowMs, amount, window = 'aligned') {
      checkBudgetArgs(limit, windowMs, amount);
      const at = open();
      const stored = windows.get(key, at);
      const start = windowStart(window, at, windowMs, stored);
      const used = usedIn(stored, start);
      const allowed = used + amount <= limit;
      const total = allowed ? used + amount : used;
      if (allowed) windows.set(key, { start, used: total, expiresAt: start + windowMs });
      return budgetResult(allowed, total, limit, start + windowMs - at);
    },

    async peekBudget(key, limit, windowMs, window = 'aligned') {
      checkBudgetArgs(limit, windowMs, 0);
      const at = open();
      const stored = windows.get(key, at);
      const start = windowStart(window, at, windowMs, stored);
      const used = usedIn(stored, start);
      return budgetResult(used < limit, used, limit, start + windowMs - at);
    },

    async acquireLock(key, ttlMs) {
      checkTtl(ttlMs);
      const at = open();
      if (locks.get(key, at) !== undefined) return null;
      const owner = randomUUID();
      storeValue(locks, key, owner, ttlMs, at);
      return owner;
    },

    async releaseLock(key, owner) {
      const held = locks.get(key, open());
      if (held?.value !== owner) return false;
      return locks.delete(key);
    },

    async put(key, value, ttlMs) {
      checkTtl(ttlMs);
      storeValue(values, key, value, ttlMs, open());
    },

    async putIfAbsent(key, value, ttlMs) {
      checkTtl(ttlMs);
      const at = open();
      if (values.get(key, at) !== undefined) return false;
      storeValue(values, key, value, ttlMs, at);
      return true;
    },

    async get(key) {
      return values.get(key, open())?.value ?? null;
    },

    async take(key) {
      const stored = values.get(key, open());
      if (stored === undefined) return null;
      values.delete(key);
      return stored.value;
    },

    async delete(key) {
      open();
      values.delete(key);
    },

    async close() {
      closed = true;
      clearInterval(sweeper);
      for (const map of maps) map.clear();
    },
  };
}

function refill(bucket: Bucket, capacity: number, refillPerSecond: number, at: number): number {
  // A clock that steps backwards must not mint tokens, hence the max(0, ...).
  const elapsedMs = Math.max(0, at - bucket.at);
  return Math.min(capacity, bucket.tokens + (elapsedMs * refillPerSecond) / 1000);
}

function takeFrom(
  tokens: number,
  refillPerSecond: number,
  cost: number,
): { allowed: boolean; tokens: number; reply: BucketResult } {
  if (tokens + TOKEN_EPSILON >= cost) {
    const left = Math.max(0, tokens - cost);
    return {
      allowed: true,
      tokens: left,
      reply: { allowed: true, remaining: wholeTokens(left), retryAfterMs: 0 },
    };
  }
  const retryAfterMs = Math.ceil(((cost - tokens) * 1000) / refillPerSecond);
  return { allowed: false, tokens, reply: { allowed: false, remaining: wholeTokens(tokens), retryAfterMs } };
}

function wholeTokens(tokens: number): number {
  return Math.floor(tokens + TOKEN_EPSILON);
}

/** A bucket left alone this long is full again, so forgetting it then loses nothing. */
function msUntilFull(tokens: number, capacity: number, refillPerSecond: number): number {
  return Math.max(1, Math.ceil(((capacity - tokens) * 1000) / refillPerSecond));
}

function windowStart(window: BudgetWindow, at: number, windowMs: number, stored?: Window): number {
  if (window === 'aligned') return at - (at % windowMs);
  // from-first: the stored window while it lasts, else one that opens now.
  return stored !== undefined && at < stored.start + windowMs ? stored.start : at;
}

/** Spending recorded for an earlier window does not count in the current one. */
function usedIn(window: Window | undefined, start: number): number {
  return window !== undefined && window.start === start ? window.used : 0;
}

function budgetResult(allowed: boolean, used: number, limit: number, resetMs: number): BudgetResult {
  return { allowed, used, remaining: Math.max(0, limit - used), resetMs };
}

/** Whole milliseconds, rounded up, as Redis PX requires. */
function wholeTtl(ttlMs: number): number {
  return Math.ceil(ttlMs);
}
