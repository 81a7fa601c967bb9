// Customers (spec: Customer, Customer stage, "Leads and customers"). Served by crm.CrmService.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { CUSTOMER_FIELD_LIMITS as MAX, CUSTOMER_STAGES } from '@fieldops/contracts';
import { z } from 'zod';
import { fieldChange, moneySchema } from '../../endpoint/common.schemas.ts';
import { customerSchema } from './customers.gen.ts';

/** The limits are data in contracts/src/field-limits/crm.ts; crm checks them again. */
export const customerFields = {
  name: z.string().trim().min(1).max(MAX.name),
  email: z.email().max(MAX.email),
  phone: z.string().trim().max(MAX.phone),
  company: z.string().trim().max(MAX.company),
  stage: z.enum(CUSTOMER_STAGES),
  source: z.string().trim().max(MAX.source),
  ownerId: z.string().trim().max(MAX.ownerId).describe('Member id of the owner.'),
};

// The customer's shape is derived from crm.proto (npm run gen); what differs over HTTP is here.
export { customerSchema };

export const related = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.string(),
  updatedAt: z.string(),
  name: z.string().optional(),
  value: moneySchema.optional().describe('On a deal: its value.'),
});
export const customerDetail = z
  .object({
    customer: customerSchema,
    etag: z.string(),
    activity: z
      .array(
        z.object({
          id: z.string(),
          at: z.string(),
          action: z.string(),
          changes: z.array(fieldChange),
          actor: z.string(),
          requestId: z.string(),
          note: z.string().optional().describe('What was logged, for entries such as message_logged.'),
        }),
      )
      .describe('Every change to the record, newest first.'),
    related: z.object({
      deals: z.array(related),
      projects: z.array(related),
      captures: z.array(related),
      proposals: z.array(related),
      invoices: z.array(related),
    }),
    rollup: z
      .object({
        currency: z.string(),
        openDealsCents: z.number().int(),
        wonCents: z.number().int(),
        invoicedCents: z.number().int(),
        paidCents: z.number().int(),
        outstandingCents: z.number().int(),
      })
      .nullable()
      .describe('Money of the deals and their billing; null for a token that cannot read deals.'),
    nextStages: z.array(z.enum(CUSTOMER_STAGES)),
  })
  .meta({ id: 'CustomerDetail' });
