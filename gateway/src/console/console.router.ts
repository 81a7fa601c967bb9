// The tenant console at /console/: log in, API tokens, audit trail (server-rendered shells, one
// stylesheet, one script; docs/decisions.md says why). Its data comes from /api/portal calls
// under the portal's session rules, which this router also mounts (console-data.router.ts).
// Like every portal path, a console path refuses a request carrying an Authorization header
// with 401 no_session, so an API token is never mistaken for a browser session.
import express from 'express';
import type { Response, Router } from 'express';
import type { ServiceClients } from '../clients.ts';
import type { Identity } from '../identity/index.ts';
import { refuseHeaderCredentials } from '../identity/portal-guards.ts';
import { CONSOLE_DATA_ROUTE, createConsoleDataRouter } from '../portal/console-data.router.ts';
import { renderConsolePage } from './console-pages.ts';
import type { ConsolePage } from './console-pages.ts';
import { CONSOLE_SCRIPT } from './console-script.ts';
import { CONSOLE_CSS } from './console-style.ts';

export const CONSOLE_ROUTE = '/console';

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

function consoleHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
}

function pagesRouter(): Router {
  const router = express.Router({ strict: true });
  router.use(refuseHeaderCredentials, (_req, res, next) => {
    consoleHeaders(res);
    next();
  });
  const pages: Record<string, ConsolePage> = { '/': 'login', '/tokens': 'tokens', '/audit': 'audit' };
  for (const [path, page] of Object.entries(pages)) {
    router.get(path, (_req, res) => {
      res.type('html').send(renderConsolePage(page));
    });
  }
  router.get('/console.js', (_req, res) => {
    res.type('text/javascript').send(CONSOLE_SCRIPT);
  });
  router.get('/console.css', (_req, res) => {
    res.type('text/css').send(CONSOLE_CSS);
  });
  return router;
}

export interface ConsoleOptions {
  identity: Identity;
  clients: ServiceClients;
}

/** Everything the console needs, as one router for the gateway app to mount. */
export function createConsoleRouter({ identity, clients }: ConsoleOptions): Router {
  const router = express.Router({ strict: true });
  router.get(CONSOLE_ROUTE, refuseHeaderCredentials, (_req, res) => res.redirect(301, `${CONSOLE_ROUTE}/`));
  router.use(CONSOLE_ROUTE, pagesRouter());
  router.use(CONSOLE_DATA_ROUTE, createConsoleDataRouter(identity, clients));
  return router;
}
