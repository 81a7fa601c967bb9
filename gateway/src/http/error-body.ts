// Renders any thrown value as the spec's failure body. The only place HTTP status codes for
// errors are chosen; unknown errors become a 500 that leaks nothing.
import { AppError } from '@fieldops/kit/errors';
import type { NextFunction, Request, Response } from 'express';

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isBodyParserError(err)) {
    return new AppError(
      'invalid_json',
      'The request body is not valid JSON; send a JSON object.',
      {},
      { cause: err },
    );
  }
  return new AppError('internal', 'Something went wrong on our side; retry shortly.', {}, { cause: err });
}

function isBodyParserError(err: unknown): boolean {
  return (
    typeof err === 'object' && err !== null && (err as { type?: unknown }).type === 'entity.parse.failed'
  );
}

export function sendError(res: Response, err: unknown): void {
  const error = toAppError(err);
  if (error.code === 'internal') res.locals.log?.error({ err: error.cause }, 'unhandled error');
  res.status(error.http).json(error.toBody());
}

/** Express error middleware (four arguments is how Express recognises it). */
export function errorMiddleware(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) return;
  sendError(res, err);
}
