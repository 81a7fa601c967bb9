// POST /api/v1/projects/:id/designs/:designId/seal: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./designs.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField, writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { designParams, notes, machine, designSchema, designWrite } from './designs.schemas.ts';

export const sealDesign = defineEndpoint({
  operationId: 'sealDesign',
  method: 'POST',
  path: '/projects/:id/designs/:designId/seal',
  tag: 'Designs',
  summary: 'Seal a draft design: binding and final, through the two-phase confirmation.',
  description:
    'The first call answers 409 confirmation_required with willDo (summary, effect binding); re-send the identical request with x-service-confirm. Records when and by whom it was sealed, and X-Agent-Confirmed-By as sealedByClaim (a claim by the caller). A sealed design never changes: sealing it again answers it unchanged with replayed: true.',
  auth: 'scope',
  scope: { action: 'update', kind: 'deliverable' },
  params: designParams,
  projectParam: 'id',
  idempotent: true,
  dryRun: true,
  confirm: { effect: 'binding' },
  machine,
  body: z.strictObject({
    note: notes.optional().describe('What the sealer states about the design; kept on it.'),
    opId: opIdField,
  }),
  response: writeResponse('design', designSchema),
  handle: async ({ params, body, ctx, clients }) => {
    const request = { projectId: params.id, designId: params.designId, note: body.note ?? '' };
    return designWrite(await callUnary(clients.capture, 'sealDesign', request, ctx));
  },
});
