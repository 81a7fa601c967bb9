// POST /api/v1/projects/:id/lifecycle: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./projects.schemas.ts; registry order: ./index.ts.
import { LIFECYCLE_API_TRIGGERS } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import { idParams, writeResponse } from '../common.schemas.js';
import { defineEndpoint } from '../types.js';
import { writeResult } from '../write-result.js';
import { projectSchema, machine } from './projects.schemas.js';

export const fireProjectLifecycle = defineEndpoint({
  operationId: 'fireProjectLifecycle',
  method: 'POST',
  path: '/projects/:id/lifecycle',
  tag: 'Projects',
  summary: 'Move a project by one trigger of the lifecycle machine; replayed: true when already there.',
  description:
    'An illegal trigger is 409 conflict with legalTriggers. deliverable_shipped is refused while the project has no packaged deliverable. cancel is never accepted: cancelling is irreversible and done in the portal.',
  auth: 'scope',
  scope: { action: 'update', kind: 'job' },
  params: idParams,
  projectParam: 'id',
  dryRun: true,
  body: z.strictObject({
    trigger: z.enum(LIFECYCLE_API_TRIGGERS).describe('A trigger of the project lifecycle machine.'),
  }),
  machine,
  response: writeResponse('project', projectSchema),
  handle: async ({ params, body, ctx, clients }) => {
    const write = await callUnary(
      clients.projects,
      'fireLifecycleTrigger',
      { id: params.id, trigger: body.trigger },
      ctx,
    );
    return writeResult('project', write.project, write.meta);
  },
});
