// POST /api/v1/projects/:id/lifecycle: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./projects.schemas.ts; listed by ../families.gen.ts.
import { LIFECYCLE_API_TRIGGERS } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { moveEndpoint } from '../../endpoint/move-endpoint.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { MOVED_PROJECT } from './projects.schemas.ts';

export const fireProjectLifecycle = defineEndpoint({
  ...moveEndpoint(MOVED_PROJECT, '/projects/:id/lifecycle'),
  operationId: 'fireProjectLifecycle',
  summary: 'Move a project by one trigger of the lifecycle machine; replayed: true when already there.',
  description:
    'An illegal trigger is 409 conflict with legalTriggers. deliverable_shipped is refused while the project has no packaged deliverable. cancel is never accepted: cancelling is irreversible and done in the portal.',
  body: z.strictObject({
    trigger: z.enum(LIFECYCLE_API_TRIGGERS).describe('A trigger of the project lifecycle machine.'),
  }),
  handle: ({ params, body, ctx, clients }) =>
    forwardWrite(
      'project',
      callUnary(clients.projects, 'fireLifecycleTrigger', { id: params.id, trigger: body.trigger }, ctx),
    ),
});
