// Client pages (spec: Client page; "Client pages, exports, reports"). Served by
// projects.ClientPageService; the pages themselves open at /client/v1/page (client-pages/).
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import { pageBody, pageQuery, pageRequest, pageResponse } from './common.schemas.js';
import { defineEndpoint, type EndpointDef } from './types.js';

const clientPageLink = z.object({
  kind: z.enum(['project', 'customer']),
  id: z.string().describe('The project or customer the page shows.'),
  title: z.string(),
  href: z
    .string()
    .describe(
      "Path on this API's origin that opens the read-only page in a browser; its capability token is minted by the server, scoped to the page, and expires.",
    ),
  expiresAt: z.string(),
});

export const clientPageEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'listClientPages',
    method: 'GET',
    path: '/client-pages',
    tag: 'Client pages',
    summary: 'List the client pages: one per project and one per customer, each with a fresh link.',
    description:
      'Pages are assembled when opened and never stored. Project pages come first, then customer pages. A project-restricted token lists its projects’ pages only.',
    auth: 'scope',
    scope: { action: 'read', kind: 'deliverable' },
    list: true,
    query: z.strictObject({ ...pageQuery, kind: z.enum(['project', 'customer']).optional() }),
    response: pageResponse(clientPageLink),
    errors: ['field_invalid', 'field_invalid_enum'],
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
  }),
];
