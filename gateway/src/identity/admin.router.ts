// The operator admin API (ARCHITECTURE §5), mounted at /admin/v1. Bearer = the operator's admin
// secret. Bodies are strict (unknown fields → unknown_field); an unknown tenant is 404 not_found.
import type { FastState } from '@fieldops/kit/fast';
import express from 'express';
import type { Request, Response, Router } from 'express';
import type { Actor } from './actor.ts';
import { requireOperator } from './admin-auth.ts';
import type { Identity } from './index.ts';
import { parseInput } from '../http/validate.ts';
import { requestIdOf } from './request-id.ts';
import {
  listQuerySchema,
  memberInputSchema,
  noBodySchema,
  roleInputSchema,
  tenantInputSchema,
  tokenInputSchema,
} from './schemas.ts';
import { memberView, tokenView } from './views.ts';

export interface AdminRouterOptions {
  /** FIELDOPS_ADMIN_SECRET (at least 16 characters). */
  adminSecret: string;
  /** Where wrong secrets are counted per address (throttled past OPERATOR_FAILURES). */
  fast?: FastState;
}

const operator = (res: Response): Actor => ({ kind: 'operator', requestId: requestIdOf(res) });

export function createAdminRouter(identity: Identity, options: AdminRouterOptions): Router {
  const router = express.Router();
  router.use(requireOperator(options.adminSecret, options.fast));
  const tenantOf = (req: Request<{ tenantId: string }>) => identity.tenants.require(req.params.tenantId);

  router.post('/tenants', async (req, res) => {
    const tenant = await identity.tenants.create(
      parseInput(tenantInputSchema, req.body, 'body'),
      operator(res),
    );
    res.status(201).json({ ok: true, tenant });
  });

  router.get('/tenants', async (req, res) => {
    const page = await identity.tenants.list(parseInput(listQuerySchema, req.query, 'query'));
    res.json({ ok: true, items: page.items, nextCursor: page.nextCursor });
  });

  router.get('/tenants/:tenantId', async (req, res) => {
    res.json({ ok: true, tenant: await tenantOf(req) });
  });

  router.post('/tenants/:tenantId/members', async (req, res) => {
    const tenant = await tenantOf(req);
    const input = parseInput(memberInputSchema, req.body, 'body');
    const member = await identity.members.create(tenant, input, operator(res));
    res.status(201).json({ ok: true, member: memberView(member) });
  });

  router.post('/tenants/:tenantId/roles', async (req, res) => {
    const tenant = await tenantOf(req);
    const role = await identity.roles.create(
      tenant,
      parseInput(roleInputSchema, req.body, 'body'),
      operator(res),
    );
    res.status(201).json({ ok: true, role });
  });

  router.get('/tenants/:tenantId/roles', async (req, res) => {
    const tenant = await tenantOf(req);
    res.json({ ok: true, items: await identity.roles.list(tenant.id) });
  });

  router.post('/tenants/:tenantId/tokens', async (req, res) => {
    const tenant = await tenantOf(req);
    const input = parseInput(tokenInputSchema, req.body, 'body');
    const { token, secret } = await identity.tokens.issue(tenant, input, operator(res));
    res.status(201).json({ ok: true, token: { ...tokenView(token), secret } });
  });

  router.get('/tenants/:tenantId/tokens', async (req, res) => {
    const tenant = await tenantOf(req);
    const page = await identity.tokens.list(tenant.id, parseInput(listQuerySchema, req.query, 'query'));
    res.json({ ok: true, items: page.items.map(tokenView), nextCursor: page.nextCursor });
  });

  router.post('/tenants/:tenantId/tokens/:tokenId/revoke', async (req, res) => {
    const tenant = await tenantOf(req);
    parseInput(noBodySchema, req.body, 'body');
    const token = await identity.tokens.revoke(tenant, req.params.tokenId, operator(res));
    res.json({ ok: true, token: tokenView(token) });
  });

  return router;
}
