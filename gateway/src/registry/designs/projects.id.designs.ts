// POST /api/v1/projects/:id/designs,
// GET /api/v1/projects/:id/designs:
// declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./designs.schemas.ts; listed by ../families.gen.ts.
import { DESIGN_FIELD_LIMITS, DESIGN_KINDS } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField, pageBody, pageRequest, writeResponse } from '../../endpoint/common.schemas.ts';
import { deliverablePageEndpoint } from '../../endpoint/deliverable-page.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { id, projectParams, notes, machine, designSchema, designWrite } from './designs.schemas.ts';

export const createDesign = defineEndpoint({
  operationId: 'createDesign',
  method: 'POST',
  path: '/projects/:id/designs',
  tag: 'Designs',
  summary: 'Record a draft design on a project (a solar layout, site plan or survey design).',
  description:
    'The design starts draft. sceneId, when given, must be a scene of the same project. Exactly once by opId or Idempotency-Key.',
  auth: 'scope',
  scope: { action: 'create', kind: 'deliverable' },
  params: projectParams,
  projectParam: 'id',
  idempotent: true,
  dryRun: true,
  machine,
  body: z.strictObject({
    name: z.string().trim().min(1).max(DESIGN_FIELD_LIMITS.name),
    kind: z.enum(DESIGN_KINDS),
    sceneId: id.optional(),
    notes: notes.optional(),
    opId: opIdField,
  }),
  response: writeResponse('design', designSchema),
  handle: async ({ params, body, ctx, clients }) =>
    designWrite(
      await callUnary(
        clients.capture,
        'createDesign',
        {
          projectId: params.id,
          name: body.name,
          kind: body.kind,
          sceneId: body.sceneId ?? '',
          notes: body.notes ?? '',
        },
        ctx,
      ),
    ),
});

export const listDesigns = defineEndpoint({
  ...deliverablePageEndpoint('/projects/:id/designs', 'Designs', designSchema),
  operationId: 'listDesigns',
  summary: "A project's designs, newest first, drafts and sealed.",
  handle: async ({ params, query, ctx, clients }) => ({
    body: pageBody(
      await callUnary(
        clients.capture,
        'listDesigns',
        { projectId: params.id, page: pageRequest(query) },
        ctx,
      ),
    ),
  }),
});
