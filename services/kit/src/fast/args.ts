// Argument checks shared by both fast-state adapters (the contract suite holds both to them): bad
// numbers would otherwise mean division by zero, buckets that can never grant, or refunds.

export function checkBucketArgs(capacity: number, refillPerSecond: number, cost: number): void {
  ensure(isPositive(capacity), 'capacity must be a positive number');
  ensure(isPositive(refillPerSecond), 'refillPerSecond must be a positive number');
  ensure(Number.isFinite(cost) && cost >= 0 && cost <= capacity, 'cost must be between 0 and capacity');
}

export function checkBudgetArgs(limit: number, windowMs: number, amount: number): void {
  ensure(isWholeAtLeast(limit, 0), 'limit must be a non-negative integer');
  ensure(isWholeAtLeast(windowMs, 1), 'windowMs must be a positive integer');
  ensure(isWholeAtLeast(amount, 0), 'amount must be a non-negative integer');
}

export function checkTtl(ttlMs: number): void {
  ensure(isPositive(ttlMs), 'ttlMs must be a positive number');
}

function isPositive(value: number): boolean {
  return Number.isFinite(value) && value > 0;
}

function isWholeAtLeast(value: number, min: number): boolean {
  return Number.isSafeInteger(value) && value >= min;
}

function ensure(ok: boolean, message: string): void {
  if (!ok) throw new RangeError(message);
}
