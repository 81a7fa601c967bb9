// Guards that run before any portal route.
//
// 1. Paths under /api/portal accept a browser session only: a request carrying an Authorization
//    header (a bearer token, or anything else) is refused with 401 no_session (spec "What the
//    service does" 4), so a leaked API token never reaches the portal.
// 2. Cross-site request forgery: the cookie is SameSite=Strict already; on top of that every
//    state-changing call (any method but GET/HEAD/OPTIONS) must
//    - not come from another site: Sec-Fetch-Site, when the browser sends it, must be same-origin
//      or none, and Origin, when sent, must be this host;
//    - be sent as JSON (Content-Type: application/json), which an HTML form cannot do and which a
//      cross-origin script can only send after a CORS preflight the portal never approves.
import { AppError } from '@fieldops/kit';
import type { NextFunction, Request, Response } from 'express';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function refuseHeaderCredentials(req: Request, _res: Response, next: NextFunction): void {
  if ((req.get('authorization') ?? '').trim() === '') return next();
  next(
    new AppError(
      'no_session',
      'The portal accepts a browser session only and refuses API tokens; call /api/v1 with the token, or log in at POST /api/portal/login.',
    ),
  );
}

export function refuseCrossSiteWrites(req: Request, _res: Response, next: NextFunction): void {
  if (SAFE_METHODS.has(req.method)) return next();
  if (isCrossSite(req)) {
    return next(
      new AppError(
        'no_session',
        'The portal session cannot be used from another site; use the portal from its own pages.',
      ),
    );
  }
  if (!isJson(req.get('content-type'))) {
    return next(
      new AppError('invalid_body', 'Send portal requests as JSON, with Content-Type: application/json.'),
    );
  }
  next();
}

/** The media type itself, whether or not a body follows (a bodiless POST still declares it). */
const isJson = (contentType: string | undefined): boolean =>
  (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';

function isCrossSite(req: Request): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = req.get('origin');
  return origin !== undefined && hostOf(origin) !== req.get('host');
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null; // includes the opaque origin "null"
  }
}
