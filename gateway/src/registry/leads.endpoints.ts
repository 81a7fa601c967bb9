// Leads (spec: Lead, Lead status, "Leads and customers"). Served by crm.CrmService.
import { LEAD_STATUS_MACHINE, LEAD_STATUSES } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import {
  idParams,
  opIdField,
  pageQuery,
  pageResponse,
  qParam,
  writeResponse,
  pageBody,
  pageRequest,
} from './common.schemas.js';
import { customerSchema } from './customers.endpoints.js';
import { dealSchema } from './deals.endpoints.js';
import { defineEndpoint, type EndpointDef } from './types.js';
import { writeResult } from './write-result.js';

const email = z.email().max(254);
const leadFields = {
  name: z.string().trim().min(1).max(200),
  email,
  phone: z.string().trim().max(50),
  message: z.string().max(5000),
  source: z.string().trim().max(100),
  ownerId: z.string().trim().max(100).describe('Member id of the owner.'),
};

export const leadSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().optional(),
  phone: z.string().optional(),
  message: z.string().optional(),
  source: z.string().optional(),
  ownerId: z.string().optional(),
  status: z.enum(LEAD_STATUSES),
  score: z.number().int().min(0).max(85).describe('Data completeness 0 to 85; never a rating of the person.'),
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
});

const leadDetail = z.object({
  lead: leadSchema,
  etag: z.string(),
  inboundMessages: z.array(
    z.object({ id: z.string(), body: z.string(), source: z.string().optional(), receivedAt: z.string() }),
  ),
  nextStatuses: z.array(z.enum(LEAD_STATUSES)).describe('Statuses PATCH may move the lead to from here.'),
  convertible: z.boolean().describe('Whether POST /leads/:id/convert is accepted from here.'),
});

const PERSONAS = ['buyer', 'seller', 'investor'] as const;

const qualification = z.object({
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
});

export const leadEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'listLeads',
    method: 'GET',
    path: '/leads',
    tag: 'Leads',
    summary: 'List leads, newest first, filtered by status, owner or free text.',
    auth: 'scope',
    scope: { action: 'read', kind: 'lead' },
    list: true,
    query: z.strictObject({
      ...pageQuery,
      status: z.enum(LEAD_STATUSES).optional(),
      q: qParam.describe('Free text over name, email, phone and message, across the whole inbox.'),
      ownerId: z.string().max(100).optional(),
    }),
    response: pageResponse(leadSchema),
    errors: ['field_invalid', 'field_invalid_enum', 'unavailable'],
    handle: async ({ query, ctx, clients }) => {
      const page = await callUnary(
        clients.crm,
        'listLeads',
        {
          page: pageRequest(query),
          status: query.status,
          q: query.q,
          ownerId: query.ownerId,
        },
        ctx,
      );
      return { body: pageBody(page) };
    },
  }),
  defineEndpoint({
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
  }),
  defineEndpoint({
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
    errors: [
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_invalid',
      'field_too_long',
      'unknown_field',
    ],
    handle: async ({ body, ctx, clients }) => {
      const write = await callUnary(clients.crm, 'createLead', body, ctx);
      return writeResult('lead', write.lead, write.meta);
    },
  }),
  defineEndpoint({
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
    errors: [
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_invalid',
      'field_invalid_enum',
      'field_too_long',
      'unknown_field',
      'conflict',
    ],
    handle: async ({ params, body, ifMatch, ctx, clients }) => {
      const write = await callUnary(clients.crm, 'updateLead', { ...body, id: params.id, ifMatch }, ctx);
      return writeResult('lead', write.lead, write.meta);
    },
  }),
  defineEndpoint({
    operationId: 'qualifyLead',
    method: 'POST',
    path: '/leads/:id/qualify',
    tag: 'Leads',
    summary: 'Read a typed persona (buyer, seller or investor) from the facts the lead stated.',
    description:
      'Answers the persona with the statements it relied on; persona is null when nothing the lead stated points to one. Stores nothing on the lead. Spends one compute run (AI credits) and counts as a write for rate limiting. It cannot be rehearsed: the reading is the work.',
    auth: 'scope',
    scope: { action: 'update', kind: 'lead' },
    params: idParams,
    bucket: 'writes',
    budgets: [{ kind: 'compute', amount: 1 }],
    response: z.object({ qualification }),
    errors: ['not_found', 'unavailable'],
    handle: async ({ params, ctx, clients }) => {
      const write = await callUnary(clients.crm, 'qualifyLead', { id: params.id }, ctx);
      const reading = write.qualification;
      return writeResult(
        'qualification',
        reading && { ...reading, persona: reading.persona ?? null },
        write.meta,
      );
    },
  }),
  defineEndpoint({
    operationId: 'convertLead',
    method: 'POST',
    path: '/leads/:id/convert',
    tag: 'Leads',
    summary:
      "Convert a lead into a customer and an opening deal, logging its inbound messages on the customer's timeline.",
    description:
      'Exactly once with an idempotency key (a replay answers the original conversion with replayed: true). 409 conflict when the lead cannot be converted (already Converted, or Lost). The lead then has the status the lead status machine gives a converted lead.',
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
    errors: ['not_found', 'conflict', 'unavailable'],
    handle: async ({ params, ctx, clients }) => {
      const write = await callUnary(clients.crm, 'convertLead', { id: params.id }, ctx);
      const result = writeResult('customer', write.conversion?.customer, write.meta);
      result.body.deal = write.conversion?.deal ?? {};
      result.body.lead = write.conversion?.lead ?? {};
      return result;
    },
  }),
];
