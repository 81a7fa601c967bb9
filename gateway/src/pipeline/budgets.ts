// Consequence budgets per token per kind per hour (Limits 1, Errors rule 3): separate from the
// request buckets, and one request may spend several consequences. Above them, an operator's
// ceiling per tenant per kind across all of its tokens, so minting tokens cannot multiply a budget
// (docs/security.md, "Budgets and tokens"); exhausting it is the same 429 naming the kind.
import { AppError } from '@fieldops/kit';
import type { FastState } from '@fieldops/kit/fast';
import type { Response } from 'express';
import type { BudgetKind, RateLimits } from '../limits.ts';

export const HOUR_MS = 60 * 60 * 1000;

export const budgetKey = (tokenId: string, kind: BudgetKind): string => `budget:${kind}:${tokenId}`;

/** The tenant's ceiling; `tenant-` cannot collide with a token id (`tok_`, `ses_`). */
export const tenantBudgetKey = (tenantId: string, kind: BudgetKind): string =>
  `budget:${kind}:tenant-${tenantId}`;

export interface Spender {
  tokenId: string;
  tenantId: string;
}

export async function spendBudgets(
  fast: FastState,
  limits: RateLimits,
  spender: Spender,
  budgets: readonly { kind: BudgetKind; amount: number }[],
  res: Response,
): Promise<void> {
  for (const { kind, amount } of budgets) {
    const tokenLimit = limits.budgetsPerHour[kind];
    const tokenKey = budgetKey(spender.tokenId, kind);
    // The token's own budget is looked at first, so a token that is out does not use up the
    // tenant's ceiling; it is spent after the tenant's, so a tenant that is out costs the token nothing.
    const peeked = await fast.peekBudget(tokenKey, tokenLimit, HOUR_MS);
    if (peeked.remaining < amount) refuse(res, kind, tokenLimit, peeked, 'token');
    const tenantLimit = limits.tenantBudgetsPerHour[kind];
    const ceiling = await fast.spendBudget(
      tenantBudgetKey(spender.tenantId, kind),
      tenantLimit,
      HOUR_MS,
      amount,
    );
    if (!ceiling.allowed) refuse(res, kind, tenantLimit, ceiling, 'tenant');
    const spent = await fast.spendBudget(tokenKey, tokenLimit, HOUR_MS, amount);
    if (!spent.allowed) refuse(res, kind, tokenLimit, spent, 'token');
  }
}

function refuse(
  res: Response,
  kind: BudgetKind,
  limit: number,
  state: { used: number; resetMs: number },
  scope: 'token' | 'tenant',
): never {
  const who = scope === 'token' ? 'This token has' : 'This tenant has, across all its tokens,';
  const seconds = Math.max(1, Math.ceil(state.resetMs / 1000));
  res.setHeader('Retry-After', String(seconds));
  throw new AppError(
    'rate_limited',
    `${who} spent its ${kind} budget of ${limit} per hour; it refills in ${seconds} s.`,
    {
      budget: kind,
      limit,
      used: state.used,
      retryAfterSeconds: seconds,
      budgetScope: scope,
    },
  );
}
