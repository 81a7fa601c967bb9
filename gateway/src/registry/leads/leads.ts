// GET /api/v1/leads, POST /api/v1/leads: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./leads.schemas.ts; listed by ../families.gen.ts.
import { LEAD_FIELD_LIMITS, LEAD_STATUSES } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField, qParam, writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { listEndpoint } from '../../endpoint/list-endpoint.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { leadFields, leadSchema } from './leads.schemas.ts';

export const listLeads = listEndpoint({
  operationId: 'listLeads',
  path: '/leads',
  tag: 'Leads',
  summary: 'List leads, newest first, filtered by status, owner or free text.',
  kind: 'lead',
  service: 'crm',
  filters: {
    status: z.enum(LEAD_STATUSES).optional(),
    q: qParam.describe('Free text over name, email, phone and message, across the whole inbox.'),
    ownerId: z.string().max(LEAD_FIELD_LIMITS.ownerId).optional(),
  },
  item: leadSchema,
});

export const createLead = defineEndpoint({
  operationId: 'createLead',
  memberFields: ['ownerId'],
  method: 'POST',
  path: '/leads',
  tag: 'Leads',
  summary: 'Capture a lead. An open lead with the same email is returned instead, with deduped: true.',
  description:
    'A match with an existing customer is flagged (customerMatch), never merged. The message is logged as an inbound message.',
  auth: 'scope',
  scope: { action: 'create', kind: 'lead' },
  idempotent: true,
  dryRun: true,
  body: z.strictObject({
    name: leadFields.name,
    email: leadFields.email.optional(),
    phone: leadFields.phone.optional(),
    message: leadFields.message.optional(),
    source: leadFields.source.optional(),
    ownerId: leadFields.ownerId.optional(),
    opId: opIdField,
  }),
  response: writeResponse('lead', leadSchema).extend({ deduped: z.boolean().optional() }),
  handle: ({ body, ctx, clients }) => forwardWrite('lead', callUnary(clients.crm, 'createLead', body, ctx)),
});
