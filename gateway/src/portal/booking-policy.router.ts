// The tenant's instant-book policy in the portal, at /api/portal/booking-policy. It decides which
// booking requests are confirmed without a person, so it is recorded here, by a member signed in
// with a browser session whose role grants update on settings, and never through /api/v1 (a token
// could otherwise make itself a rule that confirms bookings: spec "What the service does" 7).
// GET /api/v1/booking-policy reads it.
import { callUnary } from '@fieldops/kit/grpc';
import express from 'express';
import type { Request, Router } from 'express';
import { z } from 'zod';
import type { ServiceClients } from '../clients.ts';
import { parseInput } from '../http/validate.ts';
import { authenticateSession } from '../identity/authenticate.ts';
import { assertAuthorized } from '../identity/authorize.ts';
import type { Identity } from '../identity/index.ts';
import { refuseCrossSiteWrites, refuseHeaderCredentials } from '../identity/portal-guards.ts';
import { readSessionCookie } from '../identity/session-cookie.ts';
import { sessionContext } from './session-context.ts';

const RECORD_POLICY = { action: 'update', kind: 'settings' } as const;

/** instantBook is required; a limit left out keeps the value in force. Ranges are the service's. */
const policyInput = z.strictObject({
  instantBook: z.boolean(),
  minNoticeHours: z.number().int().optional(),
  maxDurationMinutes: z.number().int().optional(),
});

export function createBookingPolicyRouter(identity: Identity, clients: ServiceClients): Router {
  const router = express.Router();
  router.use(refuseHeaderCredentials, refuseCrossSiteWrites);
  const session = (req: Request) => authenticateSession(identity, readSessionCookie(req));

  router.get('/', async (req, res) => {
    const caller = await session(req);
    const ctx = sessionContext(caller, res, 'getBookingPolicy');
    res.json({ ok: true, policy: await callUnary(clients.bookings, 'getBookingPolicy', {}, ctx) });
  });

  router.put('/', async (req, res) => {
    const caller = await session(req);
    assertAuthorized(caller, RECORD_POLICY);
    const input = parseInput(policyInput, req.body, 'body');
    const current = await callUnary(
      clients.bookings,
      'getBookingPolicy',
      {},
      sessionContext(caller, res, 'getBookingPolicy'),
    );
    const policy = await callUnary(
      clients.bookings,
      'setBookingPolicy',
      {
        instantBook: input.instantBook,
        minNoticeHours: input.minNoticeHours ?? current.minNoticeHours,
        maxDurationMinutes: input.maxDurationMinutes ?? current.maxDurationMinutes,
      },
      sessionContext(caller, res, 'setBookingPolicy'),
    );
    res.json({ ok: true, policy });
  });

  return router;
}
