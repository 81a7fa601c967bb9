// Client pages in a browser, at /client/v1/page?token=…. The token in the link is the only
// credential (minted by the projects service, scoped to one page, expiring); no API token or
// session is read here. Every refusal is a 404 page whose sentence tells the customer what to do.
import { systemContext } from '@fieldops/kit/context';
import { AppError } from '@fieldops/kit/errors';
import { callUnary } from '@fieldops/kit/grpc/client';
import { PLATFORM_TENANT } from '@fieldops/kit/store/port';
import { Router } from 'express';
import type { Response } from 'express';
import type { FastState } from '@fieldops/kit/fast/port';
import type { ServiceClients } from '../clients.js';
import type { RateLimits } from '../limits.js';
import { takeRequest } from '../pipeline/rate-limit.js';
import { requestIdOf } from '../identity/request-id.js';
import { renderClientPage, renderRefusal } from './client-page.html.js';

/** The page must not leak its link (Referer), be cached by a proxy, or run anything. */
function pageHeaders(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

export interface ClientPageRouterDeps {
  clients: ServiceClients;
  fast: FastState;
  limits: RateLimits;
}

/** Pages are read with the reads allowance per client address, as /openapi.json is. */
async function withinAllowance(deps: ClientPageRouterDeps, address: string, res: Response): Promise<boolean> {
  try {
    await takeRequest(deps.fast, deps.limits, 'reads', `client-page:${address}`, res);
    return true;
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
    const message = 'Too many pages were opened from this address; wait a minute and reload.';
    res.status(429).type('html').send(renderRefusal(message));
    return false;
  }
}

export function createClientPageRouter(deps: ClientPageRouterDeps): Router {
  const { clients } = deps;
  const router = Router();
  router.get('/', async (req, res) => {
    pageHeaders(res);
    if (!(await withinAllowance(deps, req.ip ?? 'unknown', res))) return;
    const token = typeof req.query['token'] === 'string' ? req.query['token'] : '';
    if (!token) {
      res
        .status(404)
        .type('html')
        .send(renderRefusal('This link is incomplete; open the whole link you were sent.'));
      return;
    }
    const ctx = {
      // The tenant is not known until the service has verified the token; the platform tenant
      // stands in, and the service replaces it with the one the token names.
      ...systemContext({ id: PLATFORM_TENANT, currency: '', defaultVertical: '' }, 'openClientPage'),
      requestId: requestIdOf(res) ?? '',
      principal: { kind: 'client_page_link', tokenId: '', role: 'customer', memberId: '' },
    };
    try {
      const view = await callUnary(clients.clientPages, 'openClientPage', { token }, ctx);
      res.status(200).type('html').send(renderClientPage(view));
    } catch (error) {
      const refused = error instanceof AppError && error.code === 'not_found';
      const message = refused ? error.message : 'The page cannot be shown right now; try again in a minute.';
      res
        .status(refused ? 404 : 503)
        .type('html')
        .send(renderRefusal(message));
    }
  });
  return router;
}
