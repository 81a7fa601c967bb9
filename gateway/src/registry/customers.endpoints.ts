// Customers (spec: Customer, Customer stage, "Leads and customers"). Served by crm.CrmService.
import { CUSTOMER_STAGE_MACHINE, CUSTOMER_STAGES } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import {
  fieldChange,
  idParams,
  moneySchema,
  opIdField,
  pageQuery,
  pageResponse,
  qParam,
  writeResponse,
  pageBody,
  pageRequest,
} from './common.schemas.js';
import { customerRelated } from './customer-related.js';
import { defineEndpoint, type EndpointDef } from './types.js';
import { writeResult } from './write-result.js';

const customerFields = {
  name: z.string().trim().min(1).max(200),
  email: z.email().max(254),
  phone: z.string().trim().max(50),
  company: z.string().trim().max(200),
  stage: z.enum(CUSTOMER_STAGES),
  source: z.string().trim().max(100),
  ownerId: z.string().trim().max(100).describe('Member id of the owner.'),
};

export const customerSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().optional(),
  phone: z.string().optional(),
  company: z.string().optional(),
  source: z.string().optional(),
  ownerId: z.string().optional(),
  stage: z.enum(CUSTOMER_STAGES),
  etag: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  opId: z.string().optional(),
});

const related = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.string(),
  updatedAt: z.string(),
  name: z.string().optional(),
  value: moneySchema.optional().describe('On a deal: its value.'),
});
const customerDetail = z.object({
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
  rollup: z.object({
    currency: z.string(),
    openDealsCents: z.number().int(),
    wonCents: z.number().int(),
    invoicedCents: z.number().int(),
    paidCents: z.number().int(),
    outstandingCents: z.number().int(),
  }),
  nextStages: z.array(z.enum(CUSTOMER_STAGES)),
});

export const customerEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'listCustomers',
    method: 'GET',
    path: '/customers',
    tag: 'Customers',
    summary: 'List customers, newest first, by stage or free text.',
    auth: 'scope',
    scope: { action: 'read', kind: 'customer' },
    list: true,
    query: z.strictObject({
      ...pageQuery,
      q: qParam.describe('Free text over name, email and company, across the tenant.'),
      stage: customerFields.stage.optional(),
    }),
    response: pageResponse(customerSchema),
    errors: ['field_invalid', 'field_invalid_enum'],
    handle: async ({ query, ctx, clients }) => {
      const page = await callUnary(
        clients.crm,
        'listCustomers',
        {
          page: pageRequest(query),
          q: query.q,
          stage: query.stage,
        },
        ctx,
      );
      return { body: pageBody(page) };
    },
  }),
  defineEndpoint({
    operationId: 'getCustomer',
    method: 'GET',
    path: '/customers/:id',
    tag: 'Customers',
    summary: 'Read one customer with deals, projects, captures, proposals, invoices and a money rollup.',
    auth: 'scope',
    scope: { action: 'read', kind: 'customer' },
    params: idParams,
    response: customerDetail,
    errors: ['not_found'],
    handle: async ({ params, ctx, clients, caller }) => {
      const [detail, fromServices] = await Promise.all([
        callUnary(clients.crm, 'getCustomer', { id: params.id }, ctx),
        customerRelated(clients, caller, params.id, ctx),
      ]);
      const etag = detail.customer?.etag ?? '';
      const related = detail.related && { ...detail.related, ...fromServices };
      return { body: { ...detail, related, etag }, etag };
    },
  }),
  defineEndpoint({
    operationId: 'createCustomer',
    method: 'POST',
    path: '/customers',
    tag: 'Customers',
    summary: 'Create a customer (stage defaults to Lead).',
    auth: 'scope',
    scope: { action: 'create', kind: 'customer' },
    idempotent: true,
    dryRun: true,
    body: z.strictObject({
      name: customerFields.name,
      email: customerFields.email.optional(),
      phone: customerFields.phone.optional(),
      company: customerFields.company.optional(),
      stage: customerFields.stage.optional(),
      source: customerFields.source.optional(),
      opId: opIdField,
    }),
    response: writeResponse('customer', customerSchema),
    errors: [
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_invalid',
      'field_invalid_enum',
      'field_too_long',
      'unknown_field',
    ],
    handle: async ({ body, ctx, clients }) => {
      const write = await callUnary(clients.crm, 'createCustomer', body, ctx);
      return writeResult('customer', write.customer, write.meta);
    },
  }),
  defineEndpoint({
    operationId: 'updateCustomer',
    memberFields: ['ownerId'],
    method: 'PATCH',
    path: '/customers/:id',
    tag: 'Customers',
    summary: "Amend a customer; each change is written to the record's activity trail.",
    auth: 'scope',
    scope: { action: 'update', kind: 'customer' },
    params: idParams,
    amending: true,
    dryRun: true,
    body: z.strictObject({
      name: customerFields.name.optional(),
      email: customerFields.email.optional(),
      phone: customerFields.phone.optional(),
      company: customerFields.company.optional(),
      stage: customerFields.stage.optional(),
      source: customerFields.source.optional(),
      ownerId: customerFields.ownerId.optional(),
    }),
    bodyRequiresOneOf: ['name', 'email', 'phone', 'company', 'stage', 'source', 'ownerId'],
    machine: { field: 'stage', moves: CUSTOMER_STAGE_MACHINE.moves },
    response: writeResponse('customer', customerSchema),
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
      const write = await callUnary(clients.crm, 'updateCustomer', { ...body, id: params.id, ifMatch }, ctx);
      return writeResult('customer', write.customer, write.meta);
    },
  }),
];
