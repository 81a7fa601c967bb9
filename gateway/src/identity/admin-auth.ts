// The operator's credential for /admin/v1 (and /metrics on the public port): `Authorization:
// Bearer <admin secret>`, compared in constant time. A missing or wrong secret is a 401 with
// WWW-Authenticate, like a dead token. Wrong secrets are throttled per client address (req.ip, so
// FIELDOPS_TRUSTED_PROXIES applies): after OPERATOR_FAILURES.perAddress of them in the window,
// every attempt from that address is 429 rate_limited with Retry-After, the right secret too, so
// guessing cannot go on. The window opens at the first wrong secret ('from-first').
import { AppError } from '@fieldops/kit';
import type { FastState } from '@fieldops/kit/fast';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { bearerSecret, wwwAuthenticate } from './authenticate.ts';
import { sameSecret } from './secrets.ts';

export const OPERATOR_FAILURES = { perAddress: 10, windowMs: 15 * 60_000 } as const;

export function requireOperator(adminSecret: string, fast?: FastState): RequestHandler {
  if (adminSecret.length < 16) throw new Error('The admin secret must be at least 16 characters long.');
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const key = `operator-fail:address:${req.ip ?? 'unknown'}`;
    try {
      if (fast) {
        const budget = await fast.peekBudget(
          key,
          OPERATOR_FAILURES.perAddress,
          OPERATOR_FAILURES.windowMs,
          'from-first',
        );
        if (budget.remaining <= 0) {
          const seconds = Math.max(1, Math.ceil(budget.resetMs / 1000));
          res.setHeader('Retry-After', String(seconds));
          throw new AppError(
            'rate_limited',
            `Too many wrong operator secrets from this address; wait ${Math.ceil(seconds / 60)} min and try again with the right one.`,
            { retryAfterSeconds: seconds },
          );
        }
      }
      if (!sameSecret(bearerSecret(req.get('authorization')), adminSecret)) {
        if (fast) {
          await fast.spendBudget(
            key,
            OPERATOR_FAILURES.perAddress,
            OPERATOR_FAILURES.windowMs,
            1,
            'from-first',
          );
        }
        throw new AppError(
          'invalid_token',
          'The admin secret is not right; use the operator secret of this platform.',
        );
      }
      next();
    } catch (err) {
      if (err instanceof AppError && err.code !== 'rate_limited') {
        res.set('WWW-Authenticate', wwwAuthenticate(err));
      }
      next(err);
    }
  };
}
