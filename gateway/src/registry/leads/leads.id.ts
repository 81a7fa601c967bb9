// GET /api/v1/leads/:id, PATCH /api/v1/leads/:id: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./leads.schemas.ts; listed by ../families.gen.ts.
import { LEAD_STATUS_MACHINE, LEAD_STATUSES } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { idParams, writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { leadFields, leadSchema, leadDetail } from './leads.schemas.ts';

export const getLead = defineEndpoint({
  operationId: 'getLead',
  method: 'GET',
  path: '/leads/:id',
  tag: 'Leads',
  summary: 'Read one lead with its inbound messages and the statuses it may move to.',
  auth: 'scope',
  scope: { action: 'read', kind: 'lead' },
  params: idParams,
  response: leadDetail,
  errors: ['not_found'],
  handle: async ({ params, ctx, clients }) => {
    const detail = await callUnary(clients.crm, 'getLead', { id: params.id }, ctx);
    const etag = detail.lead?.etag ?? '';
    return { body: { ...detail, etag }, etag };
  },
});

export const updateLead = defineEndpoint({
  operationId: 'updateLead',
  memberFields: ['ownerId'],
  method: 'PATCH',
  path: '/leads/:id',
  tag: 'Leads',
  summary: 'Amend a lead; a status move is guarded by the lead status machine, and Converted is refused.',
  auth: 'scope',
  scope: { action: 'update', kind: 'lead' },
  params: idParams,
  amending: true,
  dryRun: true,
  body: z.strictObject({
    status: z.enum(LEAD_STATUSES).optional(),
    ownerId: leadFields.ownerId.optional(),
    name: leadFields.name.optional(),
    email: leadFields.email.optional(),
    phone: leadFields.phone.optional(),
    message: leadFields.message.optional(),
  }),
  bodyRequiresOneOf: ['status', 'ownerId', 'name', 'email', 'phone', 'message'],
  machine: { field: 'status', moves: LEAD_STATUS_MACHINE.moves },
  response: writeResponse('lead', leadSchema),
  errors: ['not_found'],
  handle: ({ params, body, ifMatch, ctx, clients }) =>
    forwardWrite('lead', callUnary(clients.crm, 'updateLead', { ...body, id: params.id, ifMatch }, ctx)),
});
