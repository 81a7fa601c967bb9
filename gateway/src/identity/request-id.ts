import type { Response } from 'express';

/** The request id the HTTP pipeline put in res.locals, if any, so identity events carry it. */
export const requestIdOf = (res: Response): string | undefined =>
  typeof res.locals.requestId === 'string' ? res.locals.requestId : undefined;
