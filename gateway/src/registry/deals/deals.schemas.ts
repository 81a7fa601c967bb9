// Deals and pipeline (spec: Deal, Deal stage, "Deals and pipeline"). Served by crm.DealService.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { DEAL_FIELD_LIMITS, DEAL_STAGE_MACHINE } from '@fieldops/contracts';
import { z } from 'zod';
import { booleanQuery, moneySchema, writeResponse } from '../../endpoint/common.schemas.ts';
import type { MovedRecord } from '../../endpoint/move-endpoint.ts';
import { dealSchema } from './deals.gen.ts';

// The response shapes are derived from deals.proto (npm run gen); what differs over HTTP is below.
export { dealDetail, dealSchema, pipeline } from './deals.gen.ts';
export const money = moneySchema;

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
