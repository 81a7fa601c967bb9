// GET /api/v1/client-pages: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./client-pages.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { pageBody, pageQuery, pageRequest, pageResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { clientPageLink } from './client-pages.schemas.ts';

export const listClientPages = defineEndpoint({
  operationId: 'listClientPages',
  method: 'GET',
  path: '/client-pages',
  tag: 'Client pages',
  summary: 'List the client pages: one per project and one per customer, each with a fresh link.',
  description:
    'Pages are assembled when opened and never stored. Project pages come first, then customer pages. A project-restricted token lists its projects’ pages only.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  // A page shows the project, its customer, captures, deliverables, quantities, and a customer's
  // open proposals and invoices; the service lists a restricted token's projects' pages only.
  gathers: {
    kinds: ['deliverable', 'job', 'customer', 'capture', 'deal'],
    byKind: 'require',
    byProject: 'filter',
  },
  list: true,
  query: z.strictObject({ ...pageQuery, kind: z.enum(['project', 'customer']).optional() }),
  response: pageResponse(clientPageLink),
  handle: async ({ query, ctx, clients, caller }) => {
    const page = await callUnary(
      clients.clientPages,
      'listClientPages',
      {
        page: pageRequest(query),
        kind: query.kind,
        scope: caller?.projectIds ? { ids: caller.projectIds } : undefined,
      },
      ctx,
    );
    return { body: pageBody(page) };
  },
});
