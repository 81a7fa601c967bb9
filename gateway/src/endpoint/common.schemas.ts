// Schemas shared by many endpoint declarations.
import { CURSOR_MAX, ID_REF_MAX } from '@fieldops/contracts';
import { z } from 'zod';
import { RawJson } from '../http/raw-json.ts';
import { IDEMPOTENCY_KEY_MAX, Q_MAX } from '../limits.ts';

/** Path `:id` of a resource: an opaque id as returned by its list call. */
export const idParams = z.strictObject({ id: z.string().min(1).max(ID_REF_MAX) });

/** cursor and limit of every list (Conventions 3); the pipeline clamps limit and reports it. */
export const pageQuery = {
  cursor: z.string().max(CURSOR_MAX).optional().describe('The nextCursor of the previous page.'),
  limit: z.coerce
    .number()
    .int()
    .optional()
    .describe(
      'Page size 1 to 100, default 50; values outside the range are clamped and the response says so.',
    ),
};

/**
 * A boolean query parameter: exactly `true` or `false`. Anything else is a malformed value
 * (field_invalid), not a choice outside a set (field_invalid_enum). Undefined when left out.
 */
export const booleanQuery = z
  .string()
  .regex(/^(true|false)$/, 'must be true or false')
  .optional()
  .transform((value) => (value === undefined ? undefined : value === 'true'));

export const qParam = z
  .string()
  .max(Q_MAX)
  .optional()
  .describe('Free-text search, case-insensitive, up to 200 characters.');

/** opId in a body: the idempotency key, equivalent to the Idempotency-Key header. */
export const opIdField = z
  .string()
  .min(1)
  .max(IDEMPOTENCY_KEY_MAX)
  .optional()
  .describe('Idempotency key: the write happens once; a replay returns the original with replayed: true.');

const pages = new WeakMap<z.ZodType, z.ZodObject>();

/** A page of a list; the page of a named item is named too (`Lead` → `LeadPage`), once per item. */
export const pageResponse = (item: z.ZodType): z.ZodObject => {
  const known = pages.get(item);
  if (known) return known;
  const page = z.object({
    items: z.array(item),
    nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page.'),
    limit: z.number().int().describe('The page size applied.'),
    limitClamped: z
      .boolean()
      .optional()
      .describe('Present and true when the requested limit was out of range.'),
  });
  const id = z.globalRegistry.get(item)?.id;
  const named = id ? page.meta({ id: `${id}Page` }) : page;
  pages.set(item, named);
  return named;
};

export const writeResponse = (name: string, item: z.ZodType) =>
  z.object({
    [name]: item,
    replayed: z.boolean().optional(),
    dryRun: z.boolean().optional(),
  });

/** An amount of money: integer cents and the ISO 4217 currency. */
export const moneySchema = z
  .object({
    cents: z.number().int().describe('Integer cents.'),
    currency: z.string().describe('ISO 4217 code: the tenant currency.'),
  })
  .meta({ id: 'Money' });

export const fieldChange = z.object({
  field: z.string(),
  from: z.string().optional(),
  to: z.string().optional(),
});

/** The gRPC page request of a list endpoint (the pipeline has already clamped `limit`). */
/**
 * The page of a list RPC. Every list asks for its items as JSON bytes; a list whose reply has
 * items_json answers that way (see `listPage` in the kit), the others ignore it.
 */
export const pageRequest = (query: Record<string, unknown>) => ({
  cursor: typeof query.cursor === 'string' ? query.cursor : '',
  limit: Number(query.limit),
  itemsAsJson: true,
});

/**
 * A service page as the HTTP body: `nextCursor` is null on the last page. The `undefined` members
 * protobuf optionals leave behind are dropped by `res.json` itself, so items go out as they came;
 * items the service sent as JSON bytes go out unchanged (spliced in by `sendJson`).
 */
export const pageBody = (page: { items: object[]; nextCursor: string; itemsJson?: Uint8Array }) => ({
  items: page.itemsJson?.length ? RawJson.of(page.itemsJson) : page.items,
  nextCursor: page.nextCursor || null,
});
