// Leads (spec: Lead, Lead status, "Leads and customers"). Served by crm.CrmService.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { LEAD_FIELD_LIMITS as MAX } from '@fieldops/contracts';
import { z } from 'zod';
import { leadDetailReply } from './leads.gen.ts';

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

// The response shapes are derived from crm.proto (npm run gen); what differs over HTTP is here.
export { leadSchema, qualification } from './leads.gen.ts';

/** The gateway adds the lead's etag beside the lead (it is also the ETag header). */
const { lead, ...detailRest } = leadDetailReply.shape;
export const leadDetail = z.object({ lead, etag: z.string(), ...detailRest }).meta({ id: 'LeadDetail' });
