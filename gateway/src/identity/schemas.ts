// Input shapes of the admin API and the portal, as strict zod objects (unknown fields are refused,
// not dropped). Routers parse with parseInput; the stores then check the rules that need data
// (role exists, narrowing within the role, member belongs to the tenant).
import { z } from 'zod';
import { permissionsSchema } from './permissions.ts';

export const DEFAULT_CURRENCY = 'USD';
export const DEFAULT_VERTICAL = 'survey';
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

const text = (max: number) => z.string().trim().min(1).max(max);

export const tenantInputSchema = z.strictObject({
  name: text(200),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .refine((code) => CURRENCIES.has(code), 'must be an ISO 4217 currency code such as USD or EUR')
    .default(DEFAULT_CURRENCY),
  defaultVertical: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z][a-z0-9-]{0,39}$/, 'must be a lower-case slug such as survey or roofing')
    .default(DEFAULT_VERTICAL),
});

const roleName = text(64);

export const memberInputSchema = z.strictObject({
  name: text(200),
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  role: roleName,
  password: z
    .string()
    .max(200)
    .refine((value) => value.length >= 10, 'must be at least 10 characters long')
    .optional(),
});

export const roleInputSchema = z.strictObject({ name: roleName, permissions: permissionsSchema });

const projectIds = z
  .array(z.string().trim().min(1).max(100))
  .min(1)
  .max(100)
  .transform((ids) => [...new Set(ids)]);

const expiresAt = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());

/** Shared by the admin API and the portal; the portal adds its own rules for memberId. */
const tokenFields = {
  name: text(100).optional(),
  role: roleName,
  permissions: permissionsSchema.optional(),
  projectIds: projectIds.optional(),
  expiresAt: expiresAt.optional(),
};

export const tokenInputSchema = z.strictObject({
  ...tokenFields,
  memberId: z.string().min(1).max(100).optional(),
});

/** Portal: memberId defaults to the member; null asks for a token bound to nobody. */
export const portalTokenInputSchema = z.strictObject({
  ...tokenFields,
  memberId: z.string().min(1).max(100).nullable().optional(),
});

export const loginInputSchema = z.strictObject({
  tenantId: z.string().min(1).max(100),
  email: z.string().trim().toLowerCase().min(1).max(254),
  password: z.string().min(1).max(200),
});

/** Lists: limit outside 1..100 is clamped (the spec's rule for pages), default 50. */
export const listQuerySchema = z.object({
  cursor: z.string().min(1).max(500).optional(),
  limit: z.coerce
    .number()
    .int()
    .optional()
    .transform((n) => Math.min(100, Math.max(1, n ?? 50))),
});

/** Calls that take no body still refuse one with fields in it. */
export const noBodySchema = z.strictObject({}).optional();
