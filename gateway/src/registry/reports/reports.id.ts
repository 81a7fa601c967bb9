// GET /api/v1/reports/:id: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./reports.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { idParams } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import {
  REPORT_GATHERS,
  reportNotFound,
  reportSchema,
  reportView,
  reportVisibleTo,
  UNBOUND,
} from './reports.schemas.ts';

export const getReport = defineEndpoint({
  operationId: 'getReport',
  method: 'GET',
  path: '/reports/:id',
  tag: 'Reports',
  summary: "One saved report's definition: the figures it watches and the queries behind them.",
  description: `${UNBOUND} Another member's report is not_found for a token that may not see it.`,
  auth: 'scope',
  scope: { action: 'read', kind: 'report' },
  gathers: REPORT_GATHERS,
  memberBound: true,
  params: idParams,
  response: z.object({ report: reportSchema }),
  errors: ['principal_unbound', 'not_found'],
  handle: async ({ params, ctx, clients, caller }) => {
    const view = reportView(await callUnary(clients.reports, 'getReport', { id: params.id }, ctx));
    if (!reportVisibleTo(caller, view)) throw reportNotFound(params.id);
    return { body: { report: view } };
  },
});
