// POST /api/v1/proposals/:id/withdraw: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./proposals.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { documentActionEndpoint } from '../../endpoint/billing-documents.ts';
import { reason } from '../../endpoint/billing.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { PROPOSAL, proposalResult } from './proposals.schemas.ts';

export const withdrawProposal = defineEndpoint({
  ...documentActionEndpoint(PROPOSAL, '/proposals/:id/withdraw'),
  operationId: 'withdrawProposal',
  summary: "Take back a draft or an unanswered proposal; the customer's link stops working.",
  body: z.strictObject({ reason: reason.optional() }),
  handle: async ({ params, body, ctx, clients }) =>
    proposalResult(
      await callUnary(clients.proposals, 'withdrawProposal', { id: params.id, reason: body.reason }, ctx),
    ),
});
