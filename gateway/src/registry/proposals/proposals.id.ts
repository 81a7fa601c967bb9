// GET /api/v1/proposals/:id, PATCH /api/v1/proposals/:id: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./proposals.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import {
  amendDraftEndpoint,
  amendDraftRequest,
  billingReadResult,
  readDocumentEndpoint,
} from '../../endpoint/billing-documents.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { validUntil, PROPOSAL, proposalResult } from './proposals.schemas.ts';

export const getProposal = defineEndpoint({
  ...readDocumentEndpoint(PROPOSAL, '/proposals/:id'),
  operationId: 'getProposal',
  summary: 'Read one proposal with its lines, computed totals and legal triggers.',
  handle: async ({ params, ctx, clients }) => {
    const detail = await callUnary(clients.proposals, 'getProposal', { id: params.id }, ctx);
    return billingReadResult(detail, detail.proposal);
  },
});

export const updateProposal = defineEndpoint({
  ...amendDraftEndpoint(PROPOSAL, '/proposals/:id', {
    validUntil: validUntil.or(z.literal('')).optional().describe('An empty string clears it.'),
  }),
  operationId: 'updateProposal',
  summary: 'Amend a draft proposal (If-Match); lines replace every line and the totals are recomputed.',
  description: 'Only a draft can be amended: a sent proposal is what the customer holds.',
  handle: async ({ params, body, ifMatch, ctx, clients }) => {
    const request = amendDraftRequest(params.id, body, ifMatch);
    return proposalResult(await callUnary(clients.proposals, 'updateProposal', request, ctx));
  },
});
