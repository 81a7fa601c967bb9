// GET /api/v1/deals/:id: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./deals.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { idParams } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { dealDetail } from './deals.schemas.ts';

export const getDeal = defineEndpoint({
  operationId: 'getDeal',
  method: 'GET',
  path: '/deals/:id',
  tag: 'Deals',
  summary: 'Read one deal with its activity timeline and its legal triggers.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deal' },
  params: idParams,
  response: dealDetail,
  errors: ['not_found'],
  handle: async ({ params, ctx, clients }) => {
    const detail = await callUnary(clients.deals, 'getDeal', { id: params.id }, ctx);
    return { body: { ...detail } };
  },
});
