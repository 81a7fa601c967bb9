// Leads (spec: Lead, Lead status, "Leads and customers"). Served by crm.CrmService.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { LEAD_FIELD_LIMITS as MAX, LEAD_STATUSES } from '@fieldops/contracts';
import { z } from 'zod';

export const email = z.email().max(MAX.email);
/** The limits are data in contracts/src/field-limits/crm.ts; crm checks them again. */
export const leadFields = {
  name: z.string().trim().min(1).max(MAX.name),
  email,
  phone: z.string().trim().max(MAX.phone),
  message: z.string().max(MAX.message),
  source: z.string().trim().max(MAX.source),
  ownerId: z.string().trim().max(MAX.ownerId).describe('Member id of the owner.'),
};

export const leadSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string().optional(),
    phone: z.string().optional(),
    message: z.string().optional(),
    source: z.string().optional(),
    ownerId: z.string().optional(),
    status: z.enum(LEAD_STATUSES),
    // A response field: 85 is the sum of the score's weights (crm's lead-score.ts), not a limit.
    score: z
      .number()
      .int()
      .min(0)
      .max(85)
      .describe('Data completeness 0 to 85; never a rating of the person.'),
    etag: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    opId: z.string().optional(),
    customerMatch: z
      .object({ customerId: z.string(), matchedOn: z.string() })
      .optional()
      .describe('An existing customer with the same email: flagged, never merged.'),
    convertedTo: z
      .object({ customerId: z.string(), dealId: z.string(), convertedAt: z.string() })
      .optional()
      .describe('Set by POST /leads/:id/convert: the customer and the opening deal the lead became.'),
  })
  .meta({ id: 'Lead' });

export const leadDetail = z
  .object({
    lead: leadSchema,
    etag: z.string(),
    inboundMessages: z.array(
      z.object({ id: z.string(), body: z.string(), source: z.string().optional(), receivedAt: z.string() }),
    ),
    nextStatuses: z.array(z.enum(LEAD_STATUSES)).describe('Statuses PATCH may move the lead to from here.'),
    convertible: z.boolean().describe('Whether POST /leads/:id/convert is accepted from here.'),
  })
  .meta({ id: 'LeadDetail' });

export const PERSONAS = ['buyer', 'seller', 'investor'] as const;

export const qualification = z
  .object({
    leadId: z.string(),
    persona: z.enum(PERSONAS).nullable().describe('null when nothing the lead stated points to one persona.'),
    facts: z
      .array(
        z.object({
          field: z.enum(['message', 'inbound_message']).describe('Where the lead stated it.'),
          ref: z.string().optional().describe('The inbound message id when field is inbound_message.'),
          quote: z.string().describe('The words relied on, as the lead wrote them.'),
          indicates: z.enum(PERSONAS),
        }),
      )
      .describe('Every statement relied on, including those pointing to another persona.'),
    basis: z.string().describe('How the persona was read, for the person reviewing it.'),
    qualifier: z.string().describe('The reader that answered and its version, e.g. rules/v1.'),
    readAt: z.string(),
  })
  .meta({ id: 'LeadQualification' });
