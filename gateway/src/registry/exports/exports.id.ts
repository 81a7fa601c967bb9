// GET /api/v1/exports/:id: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./exports.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { idParams } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { exportSchema, exportView, SETTINGS_READ, WHOLE_TENANT } from './exports.schemas.ts';

export const getExport = defineEndpoint({
  operationId: 'getExport',
  method: 'GET',
  path: '/exports/:id',
  tag: 'Exports',
  summary: 'One export: the poll target. A failed export names the phase that failed.',
  auth: 'scope',
  gathers: WHOLE_TENANT,
  scope: SETTINGS_READ,
  params: idParams,
  response: z.object({ export: exportSchema }),
  errors: ['not_found'],
  handle: async ({ params, ctx, clients }) => {
    const view = await callUnary(clients.exports, 'getExport', { id: params.id }, ctx);
    return { body: { export: exportView(view) } };
  },
});
