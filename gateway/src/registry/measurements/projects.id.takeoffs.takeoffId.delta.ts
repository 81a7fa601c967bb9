// GET /api/v1/projects/:id/takeoffs/:takeoffId/delta: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./measurements.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../../endpoint/types.ts';
import { id, takeoffParams, deltaSchema, deltaOut } from './measurements.schemas.ts';

export const getProjectTakeoffDelta = defineEndpoint({
  operationId: 'getProjectTakeoffDelta',
  method: 'GET',
  path: '/projects/:id/takeoffs/:takeoffId/delta',
  tag: 'Deliverables and measurements',
  summary:
    'Lines added, removed and changed from an older revision (from) to this one, each change placed against its band.',
  description:
    'Lines match by key and unit. Each change carries the band of the difference (both revisions’ uncertainties combined; the error two revisions of one capture share cancels) and side: above or below when the change exceeds the band, within when it does not, unknown when a side has no band.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: takeoffParams,
  projectParam: 'id',
  query: z.strictObject({ from: id.describe('Id of the older (from) revision, as returned by the list.') }),
  response: z.object({ delta: deltaSchema }),
  handle: async ({ params, query, ctx, clients }) => {
    const delta = await callUnary(
      clients.measurements,
      'getTakeoffDelta',
      { projectId: params.id, takeoffId: params.takeoffId, from: query.from },
      ctx,
    );
    return { body: { delta: deltaOut(delta) } };
  },
});
