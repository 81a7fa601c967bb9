// POST /api/v1/deals/:id/lose: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./deals.schemas.ts; listed by ../families.gen.ts.
import { DEAL_LOSE_REASON_MAX } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { moveEndpoint } from '../../endpoint/move-endpoint.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { MOVED_DEAL } from './deals.schemas.ts';

export const loseDeal = defineEndpoint({
  ...moveEndpoint(MOVED_DEAL, '/deals/:id/lose'),
  operationId: 'loseDeal',
  summary: 'Mark a deal lost with the reason, stored on the deal; idempotent, and reversible by reopen.',
  description:
    'Refused with 409 conflict (and legalTriggers) from a stage without a lose edge. Losing a lost deal again changes nothing: the first reason stays.',
  body: z.strictObject({
    reason: z.string().trim().min(1).max(DEAL_LOSE_REASON_MAX).describe('Why the deal was lost (free text).'),
  }),
  handle: ({ params, body, ctx, clients }) =>
    forwardWrite('deal', callUnary(clients.deals, 'loseDeal', { id: params.id, reason: body.reason }, ctx)),
});
