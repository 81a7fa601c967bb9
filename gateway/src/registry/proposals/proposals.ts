// GET /api/v1/proposals, POST /api/v1/proposals: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./proposals.schemas.ts; listed by ../families.gen.ts.
import { PROPOSAL_STATUSES } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import {
  billingListRequest,
  createDraftEndpoint,
  listDocumentsEndpoint,
  draftOwnerFields,
} from '../../endpoint/billing-documents.ts';
import { email, lineInputs, notes, title } from '../../endpoint/billing.schemas.ts';
import { opIdField, pageBody } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { validUntil, PROPOSAL, proposalResult } from './proposals.schemas.ts';

export const listProposals = defineEndpoint({
  ...listDocumentsEndpoint(PROPOSAL, '/proposals', PROPOSAL_STATUSES),
  operationId: 'listProposals',
  summary: 'List proposals, newest first, filtered by status, customer or deal.',
  description: 'A sent or viewed proposal past its validUntil reads (and filters) as expired.',
  handle: async ({ query, ctx, clients }) => {
    const page = await callUnary(clients.proposals, 'listProposals', billingListRequest(query), ctx);
    return { body: pageBody(page) };
  },
});

export const createProposal = defineEndpoint({
  ...createDraftEndpoint(PROPOSAL, '/proposals'),
  operationId: 'createProposal',
  summary: 'Draft a priced proposal for a customer or a deal. Nobody is contacted.',
  description:
    'Name the customer, the deal, or both (a deal belongs to its customer). The server computes every amount and total from the lines; amounts, totals and currency are refused as unknown fields.',
  body: z.strictObject({
    ...draftOwnerFields,
    title,
    lines: lineInputs.optional(),
    notes: notes.optional(),
    recipientEmail: email
      .optional()
      .describe("Who the proposal is emailed to; default the customer's email."),
    validUntil: validUntil.optional(),
    opId: opIdField,
  }),
  handle: async ({ body, ctx, clients }) =>
    proposalResult(
      await callUnary(clients.proposals, 'createProposal', { ...body, lines: body.lines ?? [] }, ctx),
    ),
});
