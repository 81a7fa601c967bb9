// The portal calls the tenant console's pages make besides the token calls of portal.router.ts:
// the audit trail and its chain verification (read on settings, as GET /api/v1/audit), and the
// choices the issue form offers (roles, members, the permission vocabulary). Sessions only, like
// every /api/portal path.
import { callUnary } from '@fieldops/kit/grpc';
import express from 'express';
import type { Request, Router } from 'express';
import type { ServiceClients } from '../clients.ts';
import { authenticateSession } from '../identity/authenticate.ts';
import { assertAuthorized, authorize } from '../identity/authorize.ts';
import type { Identity } from '../identity/index.ts';
import { refuseCrossSiteWrites, refuseHeaderCredentials } from '../identity/portal-guards.ts';
import { ACTIONS, KINDS } from '../identity/scopes.ts';
import { readSessionCookie } from '../identity/session-cookie.ts';
import { memberView } from '../identity/views.ts';
import { sendJson } from '../http/raw-json.ts';
import { parseInput } from '../http/validate.ts';
import { applyPageLimit } from '../pipeline/page-limit.ts';
import { auditListQuery, auditListRequest } from '../registry/audit/audit.schemas.ts';
import { pageBody } from '../endpoint/common.schemas.ts';
import { z } from 'zod';
import { sessionContext } from './session-context.ts';

export const CONSOLE_DATA_ROUTE = '/api/portal';

const READ_AUDIT = { action: 'read', kind: 'settings' } as const;
const MANAGE_TOKENS = { action: 'update', kind: 'settings' } as const;
const verifyQuery = z.strictObject({ entryId: z.string().max(100).optional() });

export function createConsoleDataRouter(identity: Identity, clients: ServiceClients): Router {
  const router = express.Router();
  router.use(['/audit', '/token-options'], refuseHeaderCredentials, refuseCrossSiteWrites);
  const session = (req: Request) => authenticateSession(identity, readSessionCookie(req));

  router.get('/audit', async (req, res) => {
    const caller = await session(req);
    assertAuthorized(caller, READ_AUDIT);
    const parsed = parseInput(auditListQuery, req.query, 'query');
    // As on /api/v1: limit 1 to 100, default 50 (without one, the service was asked for NaN: 500).
    const query = { ...parsed, limit: applyPageLimit(parsed.limit).limit };
    const ctx = sessionContext(caller, res, 'listAudit');
    const page = await callUnary(clients.audit, 'listEntries', auditListRequest(query), ctx);
    sendJson(res, 200, { ok: true, ...pageBody(page) });
  });

  router.get('/audit/verify', async (req, res) => {
    const caller = await session(req);
    assertAuthorized(caller, READ_AUDIT);
    const query = parseInput(verifyQuery, req.query, 'query');
    const ctx = sessionContext(caller, res, 'verifyAudit');
    res.json({ ok: true, ...(await callUnary(clients.audit, 'verify', { entryId: query.entryId }, ctx)) });
  });

  /** What the issue form offers: the roles (with what they grant), and members for managers. */
  router.get('/token-options', async (req, res) => {
    const caller = await session(req);
    const manages = authorize(caller, MANAGE_TOKENS).allowed;
    const roles = await identity.roles.list(caller.tenant.id);
    const members = manages ? await identity.members.list(caller.tenant.id) : [];
    res.json({
      ok: true,
      kinds: KINDS,
      actions: ACTIONS,
      roles: roles.map((role) => ({ name: role.name, permissions: role.permissions })),
      ceiling: caller.role.permissions,
      canBindOthers: manages,
      members: members.map(memberView),
    });
  });
  return router;
}
