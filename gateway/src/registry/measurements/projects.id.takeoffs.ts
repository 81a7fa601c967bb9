// GET /api/v1/projects/:id/takeoffs: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./measurements.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { pageRequest } from '../../endpoint/common.schemas.ts';
import { deliverablePageEndpoint } from '../../endpoint/deliverable-page.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { takeoffSummary, takeoffOut } from './measurements.schemas.ts';

export const listProjectTakeoffs = defineEndpoint({
  ...deliverablePageEndpoint(
    '/projects/:id/takeoffs',
    'Deliverables and measurements',
    z.object(takeoffSummary),
  ),
  operationId: 'listProjectTakeoffs',
  summary: 'Takeoff revisions of a project, newest first, with rollup by cost code and provenance mix.',
  handle: async ({ params, query, ctx, clients }) => {
    const page = await callUnary(
      clients.measurements,
      'listTakeoffs',
      { projectId: params.id, page: pageRequest(query) },
      ctx,
    );
    return {
      body: { items: page.items.map((t) => takeoffOut(t, false)), nextCursor: page.nextCursor || null },
    };
  },
});
