// POST /api/v1/proposals/:id/send: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./proposals.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { customerEmailActionEndpoint } from '../../endpoint/billing-documents.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { PROPOSAL, proposalResult } from './proposals.schemas.ts';

export const sendProposal = defineEndpoint({
  ...customerEmailActionEndpoint(PROPOSAL, '/proposals/:id/send', 'irreversible'),
  operationId: 'sendProposal',
  summary: 'Email the proposal to its recipient with a link to sign it. Irreversible: needs confirmation.',
  description:
    "The first call answers 409 confirmation_required with willDo (summary, effect irreversible, the masked recipient and totalCents); re-send the identical request with x-service-confirm. Spends one from the token's emails budget. The proposal's deal moves to proposal_sent when its machine allows.",
  handle: async ({ params, body, ctx, clients }) =>
    proposalResult(
      await callUnary(clients.proposals, 'sendProposal', { id: params.id, message: body.message }, ctx),
    ),
});
