// Consequence budgets per token per kind per hour (Limits 1, Errors rule 3): separate from the
// request buckets, and one request may spend several consequences.
import { AppError } from '@fieldops/kit';
import type { FastState } from '@fieldops/kit/fast';
import type { Response } from 'express';
import type { BudgetKind, RateLimits } from '../limits.js';

export const HOUR_MS = 60 * 60 * 1000;

export const budgetKey = (tokenId: string, kind: BudgetKind): string => `budget:${kind}:${tokenId}`;

export async function spendBudgets(
  fast: FastState,
  limits: RateLimits,
  tokenId: string,
  budgets: readonly { kind: BudgetKind; amount: number }[],
  res: Response,
): Promise<void> {
  for (const { kind, amount } of budgets) {
    const limit = limits.budgetsPerHour[kind];
    const result = await fast.spendBudget(budgetKey(tokenId, kind), limit, HOUR_MS, amount);
    if (result.allowed) continue;
    const seconds = Math.max(1, Math.ceil(result.resetMs / 1000));
    res.setHeader('Retry-After', String(seconds));
    throw new AppError(
      'rate_limited',
      `This token has spent its ${kind} budget of ${limit} per hour; it refills in ${seconds} s.`,
      { budget: kind, limit, used: result.used, retryAfterSeconds: seconds },
    );
  }
}
