// Priced lines and their totals. The server computes every amount from quantity, unit price and
// tax rate; a caller never sends an amount or a total (the gateway refuses them as unknown fields).
// Money is integer cents throughout: a line's amount is rounded half away from zero once, its tax
// is rounded once, and the totals are plain sums of those rounded figures, so the lines always add
// up to the totals a customer sees.
import { BILLING_LINE_LIMITS } from '@fieldops/contracts';
import { AppError } from '@fieldops/kit';
import type { billing } from '@fieldops/proto';

// The bounds are data in contracts/src/field-limits/crm.ts, which the gateway's schemas read too.
export const MAX_LINES = BILLING_LINE_LIMITS.maxLines;
export const MAX_DESCRIPTION = BILLING_LINE_LIMITS.description;
/** Quantities carry at most three decimals (2.5 hours, 0.125 km²). */
export const QUANTITY_SCALE = 1000;
export const MAX_QUANTITY = BILLING_LINE_LIMITS.maxQuantity;
export const MAX_UNIT_PRICE_CENTS = BILLING_LINE_LIMITS.maxUnitPriceCents;
export const MAX_TAX_RATE_BPS = BILLING_LINE_LIMITS.maxTaxRateBps;

/** A line as stored: what the caller gave plus what the server computed. */
export type LineDoc = billing.LineItem;

const invalid = (field: string, sentence: string): AppError =>
  new AppError('field_invalid', sentence, { field });

function checkLine(line: billing.LineInput, index: number): void {
  const at = `lines[${index}]`;
  const description = line.description.trim();
  if (!description)
    throw new AppError('field_required', `${at}.description must not be empty.`, {
      field: `${at}.description`,
    });
  if (description.length > MAX_DESCRIPTION) {
    throw new AppError('field_too_long', `${at}.description must be at most ${MAX_DESCRIPTION} characters.`, {
      field: `${at}.description`,
      maxLength: MAX_DESCRIPTION,
    });
  }
  const milli = line.quantity * QUANTITY_SCALE;
  if (!(line.quantity > 0) || line.quantity > MAX_QUANTITY || Math.abs(milli - Math.round(milli)) > 1e-6) {
    throw invalid(
      `${at}.quantity`,
      `${at}.quantity must be more than 0 and at most ${MAX_QUANTITY}, with at most three decimals.`,
    );
  }
  if (
    !Number.isSafeInteger(line.unitPriceCents) ||
    line.unitPriceCents < 0 ||
    line.unitPriceCents > MAX_UNIT_PRICE_CENTS
  ) {
    throw invalid(
      `${at}.unitPriceCents`,
      `${at}.unitPriceCents must be a whole number of cents from 0 to ${MAX_UNIT_PRICE_CENTS}.`,
    );
  }
  const bps = line.taxRateBps ?? 0;
  if (!Number.isInteger(bps) || bps < 0 || bps > MAX_TAX_RATE_BPS) {
    throw invalid(
      `${at}.taxRateBps`,
      `${at}.taxRateBps must be a whole number of basis points from 0 to ${MAX_TAX_RATE_BPS} (2000 = 20 %).`,
    );
  }
}

/** Rounds half away from zero; amounts here are never negative, so this is half up. */
const roundCents = (value: number): number => Math.round(value);

/** Validates the caller's lines and prices each one. */
export function priceLines(lines: readonly billing.LineInput[]): LineDoc[] {
  if (lines.length > MAX_LINES) throw invalid('lines', `A document holds at most ${MAX_LINES} lines.`);
  return lines.map((line, index) => {
    checkLine(line, index);
    const quantityMilli = Math.round(line.quantity * QUANTITY_SCALE);
    const amountCents = roundCents((quantityMilli * line.unitPriceCents) / QUANTITY_SCALE);
    const taxRateBps = line.taxRateBps ?? 0;
    const taxCents = roundCents((amountCents * taxRateBps) / MAX_TAX_RATE_BPS);
    if (!Number.isSafeInteger(amountCents + taxCents)) {
      throw invalid(`lines[${index}]`, `lines[${index}] comes to more than can be billed in one line.`);
    }
    return {
      description: line.description.trim(),
      quantity: quantityMilli / QUANTITY_SCALE,
      unitPriceCents: line.unitPriceCents,
      taxRateBps,
      amountCents,
      taxCents,
    };
  });
}

/** The document's totals: sums of the lines' rounded figures, in the tenant's currency. */
export function totalsOf(lines: readonly LineDoc[], currency: string): billing.Totals {
  const subtotalCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
  const taxCents = lines.reduce((sum, line) => sum + line.taxCents, 0);
  const totalCents = subtotalCents + taxCents;
  if (!Number.isSafeInteger(totalCents))
    throw invalid('lines', 'The lines come to more than one document can bill.');
  return { subtotalCents, taxCents, totalCents, currency };
}

/** Lines as the API shows them (copies, so a view never shares objects with a stored doc). */
export const copyLines = (lines: readonly LineDoc[]): billing.LineItem[] =>
  lines.map((line) => ({ ...line }));

/** The caller's lines as a LineInput list again (an invoice drafted from a proposal's lines). */
export const asInputs = (lines: readonly LineDoc[]): billing.LineInput[] =>
  lines.map(({ description, quantity, unitPriceCents, taxRateBps }) => ({
    description,
    quantity,
    unitPriceCents,
    taxRateBps,
  }));
