// GET /api/v1/customers, POST /api/v1/customers: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./customers.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import {
  opIdField,
  pageQuery,
  pageResponse,
  qParam,
  writeResponse,
  pageBody,
  pageRequest,
} from '../common.schemas.js';
import { defineEndpoint } from '../types.js';
import { forwardWrite } from '../write-result.js';
import { customerFields, customerSchema } from './customers.schemas.js';

export const listCustomers = defineEndpoint({
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
});

export const createCustomer = defineEndpoint({
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
  handle: ({ body, ctx, clients }) =>
    forwardWrite('customer', callUnary(clients.crm, 'createCustomer', body, ctx)),
});
