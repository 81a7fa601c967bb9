// GET /api/v1/customers, POST /api/v1/customers: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./customers.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField, qParam, writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { listEndpoint } from '../../endpoint/list-endpoint.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { customerFields, customerSchema } from './customers.schemas.ts';

export const listCustomers = listEndpoint({
  operationId: 'listCustomers',
  path: '/customers',
  tag: 'Customers',
  summary: 'List customers, newest first, by stage or free text.',
  kind: 'customer',
  service: 'crm',
  filters: {
    q: qParam.describe('Free text over name, email and company, across the tenant.'),
    stage: customerFields.stage.optional(),
  },
  item: customerSchema,
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
