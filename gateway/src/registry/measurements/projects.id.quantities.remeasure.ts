// POST /api/v1/projects/:id/quantities/remeasure: declared here (route, scope, schemas, errors,
// handler). The newest measured capture's stored point cloud measured again with the stated
// regions: no reconstruction run. Schemas: ./measurements.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { limits } from '@fieldops/measure-engine';
import { writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import { projectParams, quantitiesOut, quantitiesSchema } from './measurements.schemas.ts';

export const remeasureProjectQuantities = defineEndpoint({
  operationId: 'remeasureProjectQuantities',
  method: 'POST',
  path: '/projects/:id/quantities/remeasure',
  tag: 'Deliverables and measurements',
  summary:
    'Measure the newest capture again with the stated regions, on its stored point cloud (no new reconstruction).',
  description:
    'Answers the new quantities snapshot (201), naming the run it read and the region version it measured; the same run and region version measured before answers that snapshot (200, replayed true). 409 when no regions are stated, nothing was measured yet, the cloud states no WGS 84 origin, or a region lies outside the capture.',
  auth: 'scope',
  scope: { action: 'create', kind: 'deliverable' },
  params: projectParams,
  projectParam: 'id',
  dryRun: true,
  idempotent: true,
  // Measuring a stored cloud again is compute, as processing a capture is (docs/security.md).
  budgets: [{ kind: 'compute', amount: 1 }],
  response: writeResponse('quantities', quantitiesSchema),
  handle: async ({ params, ctx, clients }) => {
    const write = await callUnary(
      clients.measurements,
      'remeasureQuantities',
      { projectId: params.id },
      ctx,
      { timeoutMs: limits.MEASURING_DEADLINE_MS },
    );
    return writeResult('quantities', write.snapshot && quantitiesOut(write.snapshot), write.meta);
  },
});
