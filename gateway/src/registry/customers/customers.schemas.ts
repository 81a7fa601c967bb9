// Customers (spec: Customer, Customer stage, "Leads and customers"). Served by crm.CrmService.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { CUSTOMER_FIELD_LIMITS as MAX, CUSTOMER_STAGES } from '@fieldops/contracts';
import { z } from 'zod';
import { customerDetailReply, customerSchema } from './customers.gen.ts';

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

// The detail is derived from crm.proto; the customer's etag, which the gateway adds, follows the customer.
const { customer, ...detailRest } = customerDetailReply.shape;
export const customerDetail = z
  .object({ customer, etag: z.string(), ...detailRest })
  .meta({ id: 'CustomerDetail' });
