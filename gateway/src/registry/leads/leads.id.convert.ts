// POST /api/v1/leads/:id/convert: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./leads.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { idParams } from '../../endpoint/common.schemas.ts';
import { customerSchema } from '../customers/customers.schemas.ts';
import { dealSchema } from '../deals/deals.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import { leadSchema } from './leads.schemas.ts';

export const convertLead = defineEndpoint({
  operationId: 'convertLead',
  method: 'POST',
  path: '/leads/:id/convert',
  tag: 'Leads',
  summary:
    "Convert a lead into a customer and an opening deal, logging its inbound messages on the customer's timeline.",
  description:
    'Exactly once with an idempotency key (a replay answers the original conversion with replayed: true). 409 conflict when the lead cannot be converted (already Converted, or Lost), which repeating the call cannot change: convertedTo names the customer and deal a converted lead became, convertibleFrom the statuses a lead can be converted from. The lead then has the status the lead status machine gives a converted lead.',
  auth: 'scope',
  scope: { action: 'create', kind: 'customer' },
  params: idParams,
  idempotent: true,
  dryRun: true,
  response: z.object({
    customer: customerSchema,
    deal: dealSchema,
    lead: leadSchema,
    replayed: z.boolean().optional(),
    dryRun: z.boolean().optional(),
  }),
  errors: ['not_found'],
  handle: async ({ params, ctx, clients }) => {
    const write = await callUnary(clients.crm, 'convertLead', { id: params.id }, ctx);
    const result = writeResult('customer', write.conversion?.customer, write.meta);
    result.body.deal = write.conversion?.deal ?? {};
    result.body.lead = write.conversion?.lead ?? {};
    return result;
  },
});
