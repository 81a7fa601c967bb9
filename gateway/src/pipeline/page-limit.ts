// `limit` on lists (Conventions 3): 1 to 100, default 50; values outside are clamped, and the
// response says so instead of failing.
import { PAGE_LIMIT } from '../limits.ts';

export interface AppliedLimit {
  limit: number;
  clamped: boolean;
  requested?: number;
}

export function applyPageLimit(requested: number | undefined): AppliedLimit {
  if (requested === undefined) return { limit: PAGE_LIMIT.default, clamped: false };
  const limit = Math.min(PAGE_LIMIT.max, Math.max(PAGE_LIMIT.min, requested));
  return limit === requested ? { limit, clamped: false } : { limit, clamped: true, requested };
}
