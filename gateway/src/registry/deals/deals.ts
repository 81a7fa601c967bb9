// GET /api/v1/deals, POST /api/v1/deals: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./deals.schemas.ts; listed by ../families.gen.ts.
import { DEAL_FIELD_LIMITS, DEAL_STAGES } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import {
  opIdField,
  pageBody,
  pageQuery,
  pageRequest,
  pageResponse,
  writeResponse,
} from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { dealSchema, pipeline, expectedCloseAt, openQuery } from './deals.schemas.ts';

export const listDeals = defineEndpoint({
  operationId: 'listDeals',
  method: 'GET',
  path: '/deals',
  tag: 'Deals',
  summary: "List deals, newest first, with the tenant's stage counts and open value alongside.",
  auth: 'scope',
  scope: { action: 'read', kind: 'deal' },
  list: true,
  query: z.strictObject({
    ...pageQuery,
    stage: z.enum(DEAL_STAGES).optional(),
    customerId: z.string().min(1).max(DEAL_FIELD_LIMITS.customerId).optional(),
    open: openQuery,
  }),
  response: pageResponse(dealSchema).extend({ pipeline }).meta({ id: 'DealPage' }),
  handle: async ({ query, ctx, clients }) => {
    const page = await callUnary(
      clients.deals,
      'listDeals',
      { page: pageRequest(query), stage: query.stage, customerId: query.customerId, open: query.open },
      ctx,
    );
    return { body: { ...pageBody(page), pipeline: page.pipeline } };
  },
});

export const createDeal = defineEndpoint({
  operationId: 'createDeal',
  method: 'POST',
  path: '/deals',
  tag: 'Deals',
  summary: "Open an unpriced deal for a customer: zero value in the tenant's currency, at stage lead.",
  description:
    'Money (amount, currency, totals, tax, fees, balances), status and provider fields are refused as unknown fields: a deal is priced by its signed proposal.',
  auth: 'scope',
  scope: { action: 'create', kind: 'deal' },
  idempotent: true,
  dryRun: true,
  body: z.strictObject({
    customerId: z
      .string()
      .trim()
      .min(1)
      .max(DEAL_FIELD_LIMITS.customerId)
      .describe('A customer of this tenant.'),
    contactId: z.string().trim().min(1).max(DEAL_FIELD_LIMITS.contactId).optional(),
    expectedCloseAt: expectedCloseAt.optional(),
    opId: opIdField,
  }),
  response: writeResponse('deal', dealSchema),
  errors: ['not_found'],
  handle: ({ body, ctx, clients }) => forwardWrite('deal', callUnary(clients.deals, 'createDeal', body, ctx)),
});
