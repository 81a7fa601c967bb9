// GET /api/v1/day: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./planning.schemas.ts; listed by ../families.gen.ts.
import { ID_REF_MAX } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../../endpoint/types.ts';
import { scopeOf, calendarDate, dayView } from './planning.schemas.ts';

export const getDay = defineEndpoint({
  operationId: 'getDay',
  method: 'GET',
  path: '/day',
  tag: 'Tasks',
  summary:
    "The visits of a date: each site, its imagery's age, roof marked, draft flight plan and human review.",
  description: 'Readiness describes preparation only and never authorizes a flight.',
  auth: 'scope',
  scope: { action: 'read', kind: 'job' },
  // Visits of every project with the capture side's imagery and flight-plan state; planning keeps
  // a restricted token's projects' visits only (scopeOf).
  gathers: { kinds: ['job', 'capture'], byKind: 'require', byProject: 'filter' },
  query: z.strictObject({
    date: calendarDate('The day (YYYY-MM-DD). Default: today (UTC).').optional(),
    memberId: z.string().min(1).max(ID_REF_MAX).optional().describe("Only this member's visits."),
  }),
  response: dayView,
  handle: async ({ query, ctx, clients, caller }) => {
    const date = query.date ?? new Date().toISOString().slice(0, 10);
    const day = await callUnary(
      clients.planning,
      'getDay',
      { date, memberId: query.memberId, scope: scopeOf(caller) },
      ctx,
    );
    return { body: { ...day } };
  },
});
