// GET /api/v1/projects/:id/takeoffs/:takeoffId: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./measurements.schemas.ts; registry order: ./index.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../types.js';
import { takeoffParams, takeoffSchema, takeoffOut } from './measurements.schemas.js';

export const getProjectTakeoff = defineEndpoint({
  operationId: 'getProjectTakeoff',
  method: 'GET',
  path: '/projects/:id/takeoffs/:takeoffId',
  tag: 'Deliverables and measurements',
  summary:
    'One takeoff in full: lines in SI with bands or null, provenance, rollup, scope, assumptions, disclosures.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: takeoffParams,
  projectParam: 'id',
  response: z.object({ takeoff: takeoffSchema }),
  handle: async ({ params, ctx, clients }) => {
    const takeoff = await callUnary(
      clients.measurements,
      'getTakeoff',
      { projectId: params.id, takeoffId: params.takeoffId },
      ctx,
    );
    return { body: { takeoff: takeoffOut(takeoff, true) } };
  },
});
