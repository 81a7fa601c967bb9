import type { Config } from '@fieldops/kit';

// The spec's limits as data (Limits section). Rate limits and budgets default to the spec's
// numbers and are operator-configurable through the environment (services/kit/src/config.ts).

export const PAGE_LIMIT = { min: 1, max: 100, default: 50 } as const;
export const IDEMPOTENCY_KEY_MAX = 64;
export const AGENT_HEADER_MAX = 500;
export const Q_MAX = 200;
export const CONFIRM_TOKEN_TTL_MS = 10 * 60 * 1000;
export const LEAD_SCORE_MAX = 85;

/** Consequence kinds with an hourly budget per token. */
export const BUDGET_KINDS = ['emails', 'sms', 'charges', 'publishes', 'compute'] as const;
export type BudgetKind = (typeof BUDGET_KINDS)[number];

export const RATE_BUCKETS = ['reads', 'writes'] as const;
export type RateBucket = (typeof RATE_BUCKETS)[number];

export interface RateLimits {
  /** Requests per minute per token, per bucket. */
  perMinute: Record<RateBucket, number>;
  /** Consequences per hour per token, per kind. */
  budgetsPerHour: Record<BudgetKind, number>;
  /** Consequences per hour per tenant, per kind, across all its tokens (not in the spec: an operator's ceiling). */
  tenantBudgetsPerHour: Record<BudgetKind, number>;
}

export const SPEC_RATE_LIMITS: RateLimits = {
  perMinute: { reads: 120, writes: 20 },
  budgetsPerHour: { emails: 30, sms: 20, charges: 10, publishes: 10, compute: 20 },
  tenantBudgetsPerHour: { emails: 300, sms: 200, charges: 100, publishes: 100, compute: 200 },
};

export function limitsFromConfig(config: Config): RateLimits {
  return {
    perMinute: { reads: config.rateLimits.readsPerMin, writes: config.rateLimits.writesPerMin },
    budgetsPerHour: { ...config.budgets },
    tenantBudgetsPerHour: { ...config.tenantBudgets },
  };
}
