// Failed portal logins are limited per account (tenant + email) and per client address, so a
// password cannot be guessed by many tries at one account, nor by one try at many accounts from
// one address. Only failures count: a member who types the password right is never held back.
// Each window opens at the first failure and lasts windowMs from it ('from-first'), so a lockout is
// never cut short by a boundary on the clock; shared across gateways when REDIS_URL is set.
import { AppError } from '@fieldops/kit';
import type { FastState } from '@fieldops/kit/fast';
import type { Response } from 'express';

export const LOGIN_FAILURES = {
  perAccount: 5,
  perAddress: 20,
  windowMs: 15 * 60_000,
} as const;

export interface LoginAttempt {
  tenantId: string;
  email: string;
  address: string;
}

const keysOf = (attempt: LoginAttempt) => [
  { key: `login-fail:account:${attempt.tenantId}:${attempt.email}`, limit: LOGIN_FAILURES.perAccount },
  { key: `login-fail:address:${attempt.address}`, limit: LOGIN_FAILURES.perAddress },
];

/** Refuses with 429 rate_limited (and Retry-After) while either allowance of failures is used up. */
export async function assertLoginAllowed(
  fast: FastState,
  attempt: LoginAttempt,
  res: Response,
): Promise<void> {
  for (const { key, limit } of keysOf(attempt)) {
    const budget = await fast.peekBudget(key, limit, LOGIN_FAILURES.windowMs, 'from-first');
    if (budget.remaining > 0) continue;
    const seconds = Math.max(1, Math.ceil(budget.resetMs / 1000));
    res.setHeader('Retry-After', String(seconds));
    throw new AppError(
      'rate_limited',
      `Too many failed logins for this account or from this address; wait ${Math.ceil(seconds / 60)} min and try again.`,
      { retryAfterSeconds: seconds },
    );
  }
}

/** Counts one failure against the account and the address. */
export async function recordLoginFailure(fast: FastState, attempt: LoginAttempt): Promise<void> {
  await Promise.all(
    keysOf(attempt).map(({ key, limit }) =>
      fast.spendBudget(key, limit, LOGIN_FAILURES.windowMs, 1, 'from-first'),
    ),
  );
}
