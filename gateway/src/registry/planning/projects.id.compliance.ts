// GET /api/v1/projects/:id/compliance: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./planning.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { idParams } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { GEOCODING_DEADLINE, complianceSchema } from './planning.schemas.ts';

export const getProjectCompliance = defineEndpoint({
  operationId: 'getProjectCompliance',
  method: 'GET',
  path: '/projects/:id/compliance',
  tag: 'Projects',
  summary:
    "Statutory obligations of the site's jurisdiction with citations; plan-set readiness when a solar design exists.",
  description:
    'From the versioned rules data set shipped with the service (US, UK, EU/EASA, Canada, Australia). 409 conflict when the site cannot be placed in a covered jurisdiction (details.reason).',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: idParams,
  projectParam: 'id',
  response: z.object({ compliance: complianceSchema }),
  errors: ['conflict'],
  handle: async ({ params, ctx, clients }) => {
    const compliance = await callUnary(
      clients.planning,
      'getCompliance',
      { projectId: params.id },
      ctx,
      GEOCODING_DEADLINE,
    );
    return { body: { compliance } };
  },
});
