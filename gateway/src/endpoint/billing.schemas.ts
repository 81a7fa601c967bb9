// Schemas proposals and invoices share: priced lines as the caller sends them (quantity, unit
// price, tax rate; never an amount or a total, which the server computes) and as they are shown.
import {
  BILLING_DOCUMENT_FIELD_LIMITS as MAX,
  BILLING_LINE_LIMITS as LINE,
  BILLING_REASON_MAX,
} from '@fieldops/contracts';
import { z } from 'zod';
import { lineInputDocs } from './billing.gen.ts';

// A priced line as shown and the totals are derived from billing.proto (npm run gen).
export { lineItem, totals, type LineItem, type Totals } from './billing.gen.ts';

export const MAX_LINES = LINE.maxLines;

export const lineInput = z.strictObject({
  description: z.string().trim().min(1).max(LINE.description),
  quantity: z.number().positive().max(LINE.maxQuantity).describe(lineInputDocs.quantity),
  unitPriceCents: z.number().int().min(0).max(LINE.maxUnitPriceCents).describe(lineInputDocs.unitPriceCents),
  taxRateBps: z.number().int().min(0).max(LINE.maxTaxRateBps).optional().describe(lineInputDocs.taxRateBps),
});

export const lineInputs = z
  .array(lineInput)
  .max(MAX_LINES)
  .describe('Priced lines; the server computes each amount and every total.');

export const dealMove = z
  .object({
    dealId: z.string(),
    trigger: z.string(),
    moved: z.boolean(),
    fromStage: z.string().optional(),
    toStage: z.string().optional(),
    reason: z.string().optional(),
  })
  .describe('What this write did to the deal: moved it, or left it and why.');

export const email = z.email().max(MAX.recipientEmail);
export const title = z.string().trim().min(1).max(MAX.title);
export const notes = z.string().max(MAX.notes);
export const note = z.string().trim().max(BILLING_REASON_MAX);
export const reason = z.string().trim().min(1).max(BILLING_REASON_MAX);
