// Deals and pipeline (spec: Deal, Deal stage, "Deals and pipeline"). Served by crm.DealService.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { DEAL_FIELD_LIMITS, DEAL_STAGES, DEAL_STAGE_MACHINE } from '@fieldops/contracts';
import { z } from 'zod';
import { booleanQuery, fieldChange, moneySchema, writeResponse } from '../../endpoint/common.schemas.js';
import type { MovedRecord } from '../../endpoint/move-endpoint.js';

export const money = moneySchema;

export const dealSchema = z
  .object({
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
  })
  .meta({ id: 'Deal' });

export const pipeline = z
  .object({
    stageCounts: z.record(z.enum(DEAL_STAGES), z.number().int()).describe('Every stage, zero included.'),
    openValue: money.describe('Sum of the open deals, in the tenant currency.'),
    openCount: z.number().int(),
  })
  .describe("The tenant's whole pipeline, whatever the page's filters.");

export const dealDetail = z
  .object({
    deal: dealSchema,
    activity: z
      .array(
        z.object({
          id: z.string(),
          at: z.string(),
          action: z.enum(['created', 'stage_changed', 'value_changed']),
          changes: z.array(fieldChange),
          trigger: z.enum(DEAL_STAGE_MACHINE.triggerNames).optional(),
          cause: z.string().optional().describe('What moved the deal when it was not a direct call.'),
          note: z.string().optional(),
          actor: z.string(),
          requestId: z.string(),
        }),
      )
      .describe('The timeline, newest first.'),
    legalTriggers: z
      .array(z.enum(DEAL_STAGE_MACHINE.triggerNames))
      .describe('Triggers with an edge out of the current stage; lose is fired by POST /deals/:id/lose.'),
  })
  .meta({ id: 'DealDetail' });

/** ISO date (2026-05-31) or date-time with a zone: what a calendar or a model sends. */
export const isoDateOrDateTime = (value: string): boolean =>
  z.iso.date().safeParse(value).success || z.iso.datetime({ offset: true }).safeParse(value).success;

export const expectedCloseAt = z
  .string()
  .max(DEAL_FIELD_LIMITS.expectedCloseAt)
  .refine(isoDateOrDateTime, { message: 'must be an ISO date (2026-05-31) or date-time with a zone' });

export const openQuery = booleanQuery.describe(
  'true keeps open deals only (not invoiced, not lost); false keeps closed ones only.',
);

export const machine = { field: 'stage', moves: DEAL_STAGE_MACHINE.moves };

export const MOVED_DEAL: MovedRecord = {
  path: '/deals',
  tag: 'Deals',
  kind: 'deal',
  machine,
  response: writeResponse('deal', dealSchema),
};
