// Proposals (spec: "Proposals and invoices", Operations left open 1; ENDPOINTS rows 50–54).
// Served by crm.ProposalService. Viewing, signing and declining are the customer's own acts
// through the link the send email carries, never an API call.
import { PROPOSAL_STATUS_MOVES, PROPOSAL_STATUSES } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import {
  amendDraftEndpoint,
  amendDraftRequest,
  billingListRequest,
  billingReadResult,
  billingWriteResult,
  CONFIRMED_ACTION_ERRORS,
  createDraftEndpoint,
  customerEmailBody,
  documentActionEndpoint,
  listDocumentsEndpoint,
  readDocumentEndpoint,
  draftOwnerFields,
  DRAFT_ERRORS,
  type BillingDocument,
} from './billing-documents.js';
import { email, lineInputs, lineItem, notes, reason, title, totals } from './billing.schemas.js';
import { opIdField, pageBody } from './common.schemas.js';
import { defineEndpoint, type EndpointDef } from './types.js';

const validUntil = z.iso
  .datetime({ offset: true })
  .describe('Until when the customer may sign; in the future. Default when sent: 30 days after sending.');

export const proposalSchema = z.object({
  id: z.string(),
  customerId: z.string(),
  dealId: z.string().optional(),
  title: z.string(),
  lines: z.array(lineItem),
  totals,
  status: z.enum(PROPOSAL_STATUSES),
  notes: z.string().optional(),
  recipientEmail: z.string().optional(),
  validUntil: z.string().optional(),
  sentAt: z.string().optional(),
  viewedAt: z.string().optional(),
  signature: z
    .object({
      signerName: z.string(),
      signedAt: z.string(),
      ip: z.string().describe('The client address the signature came from, kept as evidence.'),
      userAgent: z.string().describe('The browser the signature came from, kept as evidence.'),
    })
    .partial()
    .optional(),
  declinedAt: z.string().optional(),
  declineReason: z.string().optional().describe("The customer's own words."),
  withdrawnAt: z.string().optional(),
  expiredAt: z.string().optional(),
  etag: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  opId: z.string().optional(),
});

const PROPOSAL: BillingDocument = {
  name: 'proposal',
  path: '/proposals',
  tag: 'Proposals',
  schema: proposalSchema,
  moves: PROPOSAL_STATUS_MOVES,
};

const proposalResult = (write: { proposal?: object } & Parameters<typeof billingWriteResult>[2]) =>
  billingWriteResult(PROPOSAL, write.proposal, write);

export const proposalEndpoints: EndpointDef[] = [
  defineEndpoint({
    ...listDocumentsEndpoint(PROPOSAL, PROPOSAL_STATUSES),
    operationId: 'listProposals',
    summary: 'List proposals, newest first, filtered by status, customer or deal.',
    description: 'A sent or viewed proposal past its validUntil reads (and filters) as expired.',
    handle: async ({ query, ctx, clients }) => {
      const page = await callUnary(clients.proposals, 'listProposals', billingListRequest(query), ctx);
      return { body: pageBody(page) };
    },
  }),
  defineEndpoint({
    ...readDocumentEndpoint(PROPOSAL),
    operationId: 'getProposal',
    summary: 'Read one proposal with its lines, computed totals and legal triggers.',
    handle: async ({ params, ctx, clients }) => {
      const detail = await callUnary(clients.proposals, 'getProposal', { id: params.id }, ctx);
      return billingReadResult(detail, detail.proposal);
    },
  }),
  defineEndpoint({
    ...createDraftEndpoint(PROPOSAL),
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
    errors: DRAFT_ERRORS,
    handle: async ({ body, ctx, clients }) => {
      const write = await callUnary(
        clients.proposals,
        'createProposal',
        { ...body, lines: body.lines ?? [] },
        ctx,
      );
      return proposalResult(write);
    },
  }),
  defineEndpoint({
    ...amendDraftEndpoint(PROPOSAL, {
      validUntil: validUntil.or(z.literal('')).optional().describe('An empty string clears it.'),
    }),
    operationId: 'updateProposal',
    summary: 'Amend a draft proposal (If-Match); lines replace every line and the totals are recomputed.',
    description: 'Only a draft can be amended: a sent proposal is what the customer holds.',
    handle: async ({ params, body, ifMatch, ctx, clients }) => {
      const request = amendDraftRequest(params.id, body, ifMatch);
      return proposalResult(await callUnary(clients.proposals, 'updateProposal', request, ctx));
    },
  }),
  defineEndpoint({
    ...documentActionEndpoint(PROPOSAL, 'send'),
    operationId: 'sendProposal',
    summary: 'Email the proposal to its recipient with a link to sign it. Irreversible: needs confirmation.',
    description:
      "The first call answers 409 confirmation_required with willDo (summary, effect irreversible, the masked recipient and totalCents); re-send the identical request with x-service-confirm. Spends one from the token's emails budget. The proposal's deal moves to proposal_sent when its machine allows.",
    confirm: { effect: 'irreversible' },
    budgets: [{ kind: 'emails', amount: 1 }],
    body: customerEmailBody,
    errors: CONFIRMED_ACTION_ERRORS,
    handle: async ({ params, body, ctx, clients }) => {
      const write = await callUnary(
        clients.proposals,
        'sendProposal',
        { id: params.id, message: body.message },
        ctx,
      );
      return proposalResult(write);
    },
  }),
  defineEndpoint({
    ...documentActionEndpoint(PROPOSAL, 'withdraw'),
    operationId: 'withdrawProposal',
    summary: "Take back a draft or an unanswered proposal; the customer's link stops working.",
    body: z.strictObject({ reason: reason.optional() }),
    errors: ['not_found', 'invalid_json', 'invalid_body', 'field_too_long', 'unknown_field', 'conflict'],
    handle: async ({ params, body, ctx, clients }) => {
      const write = await callUnary(
        clients.proposals,
        'withdrawProposal',
        { id: params.id, reason: body.reason },
        ctx,
      );
      return proposalResult(write);
    },
  }),
];
