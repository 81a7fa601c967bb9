// The operator's credential for /admin/v1: `Authorization: Bearer <admin secret>`, compared in
// constant time. A missing or wrong secret is a 401 with WWW-Authenticate, like a dead token.
import { AppError } from '@fieldops/kit/errors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { bearerSecret, wwwAuthenticate } from './authenticate.js';
import { sameSecret } from './secrets.js';

export function requireOperator(adminSecret: string): RequestHandler {
  if (adminSecret.length < 16) throw new Error('The admin secret must be at least 16 characters long.');
  return (req: Request, res: Response, next: NextFunction): void => {
    try {
      if (!sameSecret(bearerSecret(req.get('authorization')), adminSecret)) {
        throw new AppError(
          'invalid_token',
          'The admin secret is not right; use the operator secret of this platform.',
        );
      }
      next();
    } catch (err) {
      if (err instanceof AppError) res.set('WWW-Authenticate', wwwAuthenticate(err));
      next(err);
    }
  };
}
