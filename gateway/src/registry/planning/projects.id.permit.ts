// GET /api/v1/projects/:id/permit,
// POST /api/v1/projects/:id/permit:
// declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./planning.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { idParams, writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import { permitSchema, permitBodyDescription, permitBody, permitEntries } from './planning.schemas.ts';

export const getProjectPermit = defineEndpoint({
  operationId: 'getProjectPermit',
  method: 'GET',
  path: '/projects/:id/permit',
  tag: 'Projects',
  summary: 'Permit metadata in effect: the tenant defaults with the project override merged over them.',
  auth: 'scope',
  scope: { action: 'read', kind: 'deliverable' },
  params: idParams,
  projectParam: 'id',
  response: z.object({ permit: permitSchema }),
  handle: async ({ params, ctx, clients }) => {
    const permit = await callUnary(clients.planning, 'getPermit', { projectId: params.id }, ctx);
    return { body: { permit } };
  },
});

export const setProjectPermit = defineEndpoint({
  operationId: 'setProjectPermit',
  method: 'POST',
  path: '/projects/:id/permit',
  tag: 'Projects',
  summary:
    "Set the project's permit override (sparse; unknown keys dropped); the tenant defaults stay untouched.",
  description: permitBodyDescription,
  auth: 'scope',
  scope: { action: 'update', kind: 'deliverable' },
  params: idParams,
  projectParam: 'id',
  idempotent: true,
  dryRun: true,
  body: permitBody,
  response: writeResponse('permit', permitSchema).extend({ droppedKeys: z.array(z.string()) }),
  handle: async ({ params, body, ctx, clients }) => {
    const write = await callUnary(
      clients.planning,
      'setPermitOverride',
      { projectId: params.id, ...permitEntries(body) },
      ctx,
    );
    const result = writeResult('permit', write.permit, write.meta);
    return { ...result, body: { ...result.body, droppedKeys: write.droppedKeys } };
  },
});
