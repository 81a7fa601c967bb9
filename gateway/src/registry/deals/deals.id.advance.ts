// POST /api/v1/deals/:id/advance: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./deals.schemas.ts; listed by ../families.gen.ts.
import { ADVANCE_TRIGGERS } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { moveEndpoint } from '../../endpoint/move-endpoint.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { MOVED_DEAL } from './deals.schemas.ts';

export const advanceDeal = defineEndpoint({
  ...moveEndpoint(MOVED_DEAL, '/deals/:id/advance'),
  operationId: 'advanceDeal',
  summary: 'Move a deal by one trigger of the deal stage machine; replayed: true when already there.',
  description:
    'An illegal trigger is 409 conflict with legalTriggers. lose is not accepted here: losing needs a reason (POST /deals/:id/lose). reopen takes a lost deal back to lead.',
  body: z.strictObject({
    trigger: z
      .enum(ADVANCE_TRIGGERS)
      .describe('A trigger of the deal stage machine; lose goes through POST /deals/:id/lose.'),
  }),
  handle: ({ params, body, ctx, clients }) =>
    forwardWrite(
      'deal',
      callUnary(clients.deals, 'advanceDeal', { id: params.id, trigger: body.trigger }, ctx),
    ),
});
