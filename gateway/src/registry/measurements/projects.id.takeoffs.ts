// GET /api/v1/projects/:id/takeoffs: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./measurements.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import { pageQuery, pageRequest, pageResponse } from '../common.schemas.js';
import { defineEndpoint } from '../types.js';
import { projectParams, takeoffSummary, takeoffOut } from './measurements.schemas.js';

export const listProjectTakeoffs = defineEndpoint({
  operationId: 'listProjectTakeoffs',
  method: 'GET',
  path: '/projects/:id/takeoffs',
  tag: 'Deliverables and measurements',
  summary: 'Takeoff revisions of a project, newest first, with rollup by cost code and provenance mix.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: projectParams,
  projectParam: 'id',
  list: true,
  query: z.strictObject({ ...pageQuery }),
  response: pageResponse(z.object(takeoffSummary)),
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
