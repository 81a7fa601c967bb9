// The portal's identity calls, mounted at /api/portal: log in and out with a session cookie, and
// manage API tokens from the browser. Sessions only (see portal-guards.ts for why and how).
//
// Token rules in the portal: a member sees and revokes their own tokens; a member whose role
// grants update on settings sees and revokes every token of the tenant and may issue tokens
// bound to another member or to nobody. Nobody issues a token beyond their own role.
import express from 'express';
import type { Request, Response, Router } from 'express';
import { AppError } from '@fieldops/kit';
import type { FastState } from '@fieldops/kit/fast';
import type { Actor } from '../identity/actor.ts';
import { authenticateSession } from '../identity/authenticate.ts';
import { assertAuthorized, authorize } from '../identity/authorize.ts';
import type { Identity } from '../identity/index.ts';
import type { Caller, Member } from '../identity/model.ts';
import { parseInput } from '../http/validate.ts';
import { idempotencyKeyOf, issueOnce } from './issue-once.ts';
import { assertLoginAllowed, recordLoginFailure } from './login-limit.ts';
import { refuseCrossSiteWrites, refuseHeaderCredentials } from '../identity/portal-guards.ts';
import { requestIdOf } from '../identity/request-id.ts';
import { decoyPasswordHash, needsRehash, verifyPassword } from '../identity/secrets.ts';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../identity/session-cookie.ts';
import {
  listQuerySchema,
  loginInputSchema,
  noBodySchema,
  portalTokenInputSchema,
} from '../identity/schemas.ts';
import { memberView, tokenView } from '../identity/views.ts';

const MANAGE_TOKENS = { action: 'update', kind: 'settings' } as const;

const canManageTokens = (caller: Caller): boolean => authorize(caller, MANAGE_TOKENS).allowed;

const memberOf = (caller: Caller): Member => {
  if (!caller.member) throw new AppError('no_session', 'The portal session has no member; log in again.');
  return caller.member;
};

export interface PortalOptions {
  /** Failed-login allowances and form idempotency keys. */
  fast: FastState;
}

export function createPortalRouter(identity: Identity, { fast }: PortalOptions): Router {
  const router = express.Router();
  router.use(refuseHeaderCredentials, refuseCrossSiteWrites);

  const session = (req: Request) => authenticateSession(identity, readSessionCookie(req));
  const actor = (caller: Caller, res: Response): Actor => ({
    kind: 'session',
    caller,
    requestId: requestIdOf(res),
  });

  router.post('/login', async (req, res) => {
    const { tenantId, email, password } = parseInput(loginInputSchema, req.body, 'body');
    const attempt = { tenantId, email, address: req.ip ?? 'unknown' };
    await assertLoginAllowed(fast, attempt, res);
    const member = await checkPassword(identity, tenantId, email, password).catch(async (error: unknown) => {
      await recordLoginFailure(fast, attempt);
      throw error;
    });
    const tenant = await identity.tenants.require(member.tenantId);
    const previous = readSessionCookie(req);
    if (previous) await identity.sessions.delete(previous); // a fresh session at every login
    const { secret, session: created } = await identity.sessions.create(member);
    setSessionCookie(req, res, secret);
    res.json({ ok: true, member: memberView(member), tenant, expiresAt: created.expiresAt });
  });

  router.post('/logout', async (req, res) => {
    parseInput(noBodySchema, req.body, 'body');
    const secret = readSessionCookie(req);
    if (secret) await identity.sessions.delete(secret);
    clearSessionCookie(req, res);
    res.json({ ok: true });
  });

  router.get('/session', async (req, res) => {
    const caller = await session(req);
    res.json({
      ok: true,
      member: memberView(memberOf(caller)),
      tenant: caller.tenant,
      role: caller.role,
      expiresAt: caller.expiresAt,
    });
  });

  router.get('/tokens', async (req, res) => {
    const caller = await session(req);
    const query = parseInput(listQuerySchema, req.query, 'query');
    const filter = canManageTokens(caller) ? {} : { memberId: memberOf(caller).id };
    const page = await identity.tokens.list(caller.tenant.id, query, filter);
    res.json({ ok: true, items: page.items.map(tokenView), nextCursor: page.nextCursor });
  });

  router.post('/tokens', async (req, res) => {
    const caller = await session(req);
    const key = idempotencyKeyOf(req.get('idempotency-key'));
    const { memberId, ...input } = parseInput(portalTokenInputSchema, req.body, 'body');
    const self = memberOf(caller).id;
    // Binding to someone else, or to nobody, is managing the tenant's tokens.
    if (memberId !== undefined && memberId !== self) assertAuthorized(caller, MANAGE_TOKENS);
    const bound = memberId === undefined ? self : (memberId ?? undefined);
    const issue = () =>
      identity.tokens.issue(
        caller.tenant,
        { ...input, ...(bound ? { memberId: bound } : {}) },
        actor(caller, res),
        { ceiling: caller.role },
      );
    const issued = await issueOnce(fast, { sessionId: caller.sessionId ?? caller.tokenId, key }, async () => {
      const result = await issue();
      return { id: result.token.id, result };
    });
    const { token, secret } = issued.result;
    res.status(201).json({ ok: true, token: { ...tokenView(token), secret } });
  });

  router.post('/tokens/:tokenId/revoke', async (req, res) => {
    const caller = await session(req);
    parseInput(noBodySchema, req.body, 'body');
    const token = await identity.tokens.get(caller.tenant.id, req.params.tokenId);
    if (!token)
      throw new AppError('not_found', `No token with id ${req.params.tokenId} exists in this tenant.`);
    if (token.memberId !== memberOf(caller).id) assertAuthorized(caller, MANAGE_TOKENS);
    const revoked = await identity.tokens.revoke(caller.tenant, token.id, actor(caller, res));
    res.json({ ok: true, token: tokenView(revoked) });
  });

  return router;
}

/**
 * The member whose password this is. Every failure (unknown tenant, unknown email, no password
 * set, wrong password) gives the same answer after the same work, so nothing is disclosed.
 */
async function checkPassword(
  identity: Identity,
  tenantId: string,
  email: string,
  password: string,
): Promise<Member> {
  const tenant = await identity.tenants.get(tenantId);
  const member = tenant ? await identity.members.findByEmail(tenant.id, email) : null;
  const ok = await verifyPassword(password, member?.passwordHash ?? (await decoyPasswordHash()));
  if (member?.passwordHash && ok) {
    // A hash of an earlier version (scrypt, or weaker Argon2id) is replaced now the password is known.
    if (needsRehash(member.passwordHash))
      await identity.members.rehashPassword(member.tenantId, member.id, password);
    return member;
  }
  throw new AppError(
    'no_session',
    'The tenant, email or password is not right; check them and log in again.',
  );
}
