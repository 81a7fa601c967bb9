// Deals and pipeline (spec: Deal, Deal stage, "Deals and pipeline"). Served by crm.DealService.
import {
  ADVANCE_TRIGGERS,
  DEAL_LOSE_REASON_MAX,
  DEAL_STAGE_MOVES,
  DEAL_STAGES,
  DEAL_TRIGGERS,
} from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import {
  booleanQuery,
  fieldChange,
  idParams,
  moneySchema,
  opIdField,
  pageBody,
  pageQuery,
  pageRequest,
  pageResponse,
  writeResponse,
} from './common.schemas.js';
import { moveEndpoint, REASON_MOVE_ERRORS, type MovedRecord } from './move-endpoint.js';
import { defineEndpoint, type EndpointDef } from './types.js';
import { writeResult } from './write-result.js';

const money = moneySchema;

export const dealSchema = z.object({
  id: z.string(),
  customerId: z.string(),
  contactId: z.string().optional(),
  expectedCloseAt: z.string().optional(),
  stage: z.enum(DEAL_STAGES),
  value: money.describe('Zero until a signed proposal prices the deal.'),
  reason: z.string().optional().describe('Why the deal was lost; present only while it is lost.'),
  open: z.boolean().describe('Not invoiced and not lost.'),
  createdAt: z.string(),
  updatedAt: z.string(),
  stageChangedAt: z.string(),
  opId: z.string().optional(),
  leadId: z.string().optional().describe('The lead this deal was opened from by conversion.'),
});

const pipeline = z
  .object({
    stageCounts: z.record(z.enum(DEAL_STAGES), z.number().int()).describe('Every stage, zero included.'),
    openValue: money.describe('Sum of the open deals, in the tenant currency.'),
    openCount: z.number().int(),
  })
  .describe("The tenant's whole pipeline, whatever the page's filters.");

const dealDetail = z.object({
  deal: dealSchema,
  activity: z
    .array(
      z.object({
        id: z.string(),
        at: z.string(),
        action: z.enum(['created', 'stage_changed', 'value_changed']),
        changes: z.array(fieldChange),
        trigger: z.enum(DEAL_TRIGGERS).optional(),
        cause: z.string().optional().describe('What moved the deal when it was not a direct call.'),
        note: z.string().optional(),
        actor: z.string(),
        requestId: z.string(),
      }),
    )
    .describe('The timeline, newest first.'),
  legalTriggers: z
    .array(z.enum(DEAL_TRIGGERS))
    .describe('Triggers with an edge out of the current stage; lose is fired by POST /deals/:id/lose.'),
});

/** ISO date (2026-05-31) or date-time with a zone: what a calendar or a model sends. */
const isoDateOrDateTime = (value: string): boolean =>
  z.iso.date().safeParse(value).success || z.iso.datetime({ offset: true }).safeParse(value).success;

const expectedCloseAt = z
  .string()
  .max(40)
  .refine(isoDateOrDateTime, { message: 'must be an ISO date (2026-05-31) or date-time with a zone' });

const openQuery = booleanQuery.describe(
  'true keeps open deals only (not invoiced, not lost); false keeps closed ones only.',
);

const machine = { field: 'stage', moves: DEAL_STAGE_MOVES };

const MOVED_DEAL: MovedRecord = {
  path: '/deals',
  tag: 'Deals',
  kind: 'deal',
  machine,
  response: writeResponse('deal', dealSchema),
};

export const dealEndpoints: EndpointDef[] = [
  defineEndpoint({
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
      customerId: z.string().min(1).max(100).optional(),
      open: openQuery,
    }),
    response: pageResponse(dealSchema).extend({ pipeline }),
    errors: ['field_invalid', 'field_invalid_enum', 'unavailable'],
    handle: async ({ query, ctx, clients }) => {
      const page = await callUnary(
        clients.deals,
        'listDeals',
        { page: pageRequest(query), stage: query.stage, customerId: query.customerId, open: query.open },
        ctx,
      );
      return { body: { ...pageBody(page), pipeline: page.pipeline } };
    },
  }),
  defineEndpoint({
    operationId: 'getDeal',
    method: 'GET',
    path: '/deals/:id',
    tag: 'Deals',
    summary: 'Read one deal with its activity timeline and its legal triggers.',
    auth: 'scope',
    scope: { action: 'read', kind: 'deal' },
    params: idParams,
    response: dealDetail,
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => {
      const detail = await callUnary(clients.deals, 'getDeal', { id: params.id }, ctx);
      return { body: { ...detail } };
    },
  }),
  defineEndpoint({
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
      customerId: z.string().trim().min(1).max(100).describe('A customer of this tenant.'),
      contactId: z.string().trim().min(1).max(100).optional(),
      expectedCloseAt: expectedCloseAt.optional(),
      opId: opIdField,
    }),
    response: writeResponse('deal', dealSchema),
    errors: [
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_invalid',
      'field_invalid_enum',
      'unknown_field',
      'unavailable',
    ],
    handle: async ({ body, ctx, clients }) => {
      const write = await callUnary(clients.deals, 'createDeal', body, ctx);
      return writeResult('deal', write.deal, write.meta);
    },
  }),
  defineEndpoint({
    ...moveEndpoint(MOVED_DEAL, 'advance'),
    operationId: 'advanceDeal',
    summary: 'Move a deal by one trigger of the deal stage machine; replayed: true when already there.',
    description:
      'An illegal trigger is 409 conflict with legalTriggers. lose is not accepted here: losing needs a reason (POST /deals/:id/lose). reopen takes a lost deal back to lead.',
    body: z.strictObject({
      trigger: z
        .enum(ADVANCE_TRIGGERS)
        .describe('A trigger of the deal stage machine; lose goes through POST /deals/:id/lose.'),
    }),
    errors: [
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_invalid_enum',
      'unknown_field',
      'conflict',
    ],
    handle: async ({ params, body, ctx, clients }) => {
      const write = await callUnary(
        clients.deals,
        'advanceDeal',
        { id: params.id, trigger: body.trigger },
        ctx,
      );
      return writeResult('deal', write.deal, write.meta);
    },
  }),
  defineEndpoint({
    ...moveEndpoint(MOVED_DEAL, 'lose'),
    operationId: 'loseDeal',
    summary: 'Mark a deal lost with the reason, stored on the deal; idempotent, and reversible by reopen.',
    description:
      'Refused with 409 conflict (and legalTriggers) from a stage without a lose edge. Losing a lost deal again changes nothing: the first reason stays.',
    body: z.strictObject({
      reason: z
        .string()
        .trim()
        .min(1)
        .max(DEAL_LOSE_REASON_MAX)
        .describe('Why the deal was lost (free text).'),
    }),
    errors: REASON_MOVE_ERRORS,
    handle: async ({ params, body, ctx, clients }) => {
      const write = await callUnary(clients.deals, 'loseDeal', { id: params.id, reason: body.reason }, ctx);
      return writeResult('deal', write.deal, write.meta);
    },
  }),
];
