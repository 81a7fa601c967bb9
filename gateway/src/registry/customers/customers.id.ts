// GET /api/v1/customers/:id,
// PATCH /api/v1/customers/:id:
// declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./customers.schemas.ts; listed by ../families.gen.ts.
import { CUSTOMER_STAGE_MACHINE } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { idParams, writeResponse } from '../../endpoint/common.schemas.ts';
import { customerRelated, withoutUnreadBilling } from '../../endpoint/customer-related.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { customerFields, customerSchema, customerDetail } from './customers.schemas.ts';

export const getCustomer = defineEndpoint({
  operationId: 'getCustomer',
  method: 'GET',
  path: '/customers/:id',
  tag: 'Customers',
  summary: 'Read one customer with deals, projects, captures, proposals, invoices and a money rollup.',
  auth: 'scope',
  scope: { action: 'read', kind: 'customer' },
  // `related` shows deals (with proposals, invoices and the money rollup), projects and captures:
  // only those kinds the token reads, and only a restricted token's own projects
  // (customer-related.ts).
  gathers: { kinds: ['customer', 'deal', 'job', 'capture'], byKind: 'filter', byProject: 'filter' },
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
    return { body: { ...detail, ...withoutUnreadBilling(caller, related, detail.rollup), etag }, etag };
  },
});

export const updateCustomer = defineEndpoint({
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
  errors: ['not_found'],
  handle: ({ params, body, ifMatch, ctx, clients }) =>
    forwardWrite(
      'customer',
      callUnary(clients.crm, 'updateCustomer', { ...body, id: params.id, ifMatch }, ctx),
    ),
});
