// Renders any thrown value as the spec's failure body. The only place HTTP status codes for
// errors are chosen; unknown errors become a 500 that leaks nothing.
import { AppError } from '@fieldops/kit';
import type { NextFunction, Request, Response } from 'express';
import { protocolError } from './edge-errors.ts';
import { forClient } from './outcome-unknown.ts';

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const protocol = protocolError(err);
  if (protocol) return protocol;
  return new AppError(
    'internal',
    'Something went wrong on our side; the fault is logged. Retrying the same request will not help.',
    {},
    { cause: err },
  );
}

export function sendError(res: Response, err: unknown): void {
  const error = forClient(toAppError(err), res.req?.method);
  if (error.code === 'internal') res.locals.log?.error({ err: error.cause }, 'unhandled error');
  res.status(error.http).json(error.toBody());
}

/** Express error middleware (four arguments is how Express recognises it). */
export function errorMiddleware(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) return;
  sendError(res, err);
}
