// The fast-state port: short-lived shared state for the gateway (rate buckets, consequence
// budgets, idempotency locks, confirmation tokens). Adapters: Redis through ioredis
// (REDIS_URL) and an embedded in-process one with the same atomic semantics.

export interface BucketResult {
  allowed: boolean;
  /** Whole tokens left after this take. */
  remaining: number;
  /** When refused: how long until `cost` tokens are available again. 0 when allowed. */
  retryAfterMs: number;
}

/** How a budget's window is placed in time (see FastState.spendBudget). */
export type BudgetWindow = 'aligned' | 'from-first';

export interface BudgetResult {
  allowed: boolean;
  used: number;
  remaining: number;
  /** Until the current window ends and the budget is whole again. */
  resetMs: number;
}

export interface FastState {
  /**
   * Token bucket: `capacity` tokens, refilled continuously at `refillPerSecond`. Takes `cost`
   * tokens atomically if available; otherwise takes none.
   */
  takeToken(key: string, capacity: number, refillPerSecond: number, cost?: number): Promise<BucketResult>;
  /**
   * Fixed window counter. Adds `amount` only if the total stays within `limit`; otherwise adds
   * nothing. The window is `aligned` (the default: multiples of windowMs since the epoch, so an
   * hourly budget renews on the hour for every caller) or `from-first` (opened by the first spend
   * and lasting windowMs from it, so a lockout cannot be halved by a boundary falling mid-way).
   */
  spendBudget(
    key: string,
    limit: number,
    windowMs: number,
    amount: number,
    window?: BudgetWindow,
  ): Promise<BudgetResult>;
  /** The same window as spendBudget, read without spending. */
  peekBudget(key: string, limit: number, windowMs: number, window?: BudgetWindow): Promise<BudgetResult>;
  /** Returns an owner token when the lock was free, else null. The lock expires after ttlMs. */
  acquireLock(key: string, ttlMs: number): Promise<string | null>;
  /** Releases only if `owner` still holds it. */
  releaseLock(key: string, owner: string): Promise<boolean>;
  put(key: string, value: string, ttlMs: number): Promise<void>;
  /** Stores only if the key is absent; true when stored. */
  putIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  get(key: string): Promise<string | null>;
  /** Reads and deletes in one step (single-use tokens). */
  take(key: string): Promise<string | null>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}
