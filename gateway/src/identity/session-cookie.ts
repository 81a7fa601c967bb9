// The portal session cookie: HttpOnly (scripts cannot read it), SameSite=Strict (never sent on
// a cross-site request), scoped to the portal's path, and Secure except for plain http on the
// local machine, where browsers would otherwise drop it during development.
import type { Request, Response } from 'express';
import { SESSION_TTL_MS } from './sessions.store.ts';

export const SESSION_COOKIE = 'fieldops_session';
export const PORTAL_PATH = '/api/portal';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

const isLocalPlainHttp = (req: Request): boolean => !req.secure && LOCAL_HOSTS.has(req.hostname);

const options = (req: Request) => ({
  httpOnly: true,
  sameSite: 'strict' as const,
  path: PORTAL_PATH,
  secure: !isLocalPlainHttp(req),
});

export function setSessionCookie(req: Request, res: Response, secret: string): void {
  res.cookie(SESSION_COOKIE, secret, { ...options(req), maxAge: SESSION_TTL_MS });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, options(req));
}

/** The session cookie's value from the Cookie header (no cookie-parser needed for one cookie). */
export function readSessionCookie(req: Request): string | undefined {
  for (const pair of (req.get('cookie') ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === SESSION_COOKIE) return safeDecode(pair.slice(at + 1).trim());
  }
  return undefined;
}

function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined; // a mangled cookie is no session
  }
}
