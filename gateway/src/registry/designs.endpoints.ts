// Designs (ENDPOINTS row 71, seal; spec "Operations named but with their shape left open" 3).
// Served by capture.CaptureService. A design is drawn work on a project (a solar layout, a site
// plan, a survey design), recorded as a draft; sealing it is binding, so it goes through the
// two-phase confirmation, and a sealed design never changes. Create, list and read are beyond
// the 88 rows: a seal needs something to seal (docs/decisions.md, Designs).
import { DESIGN_KINDS, DESIGN_LIMITS, DESIGN_STATUS_MOVES, DESIGN_STATUSES } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc/client';
import type { capture } from '@fieldops/proto';
import { z } from 'zod';
import {
  opIdField,
  pageBody,
  pageQuery,
  pageRequest,
  pageResponse,
  writeResponse,
} from './common.schemas.js';
import { defineEndpoint, type EndpointDef } from './types.js';
import { writeResult } from './write-result.js';

const id = z.string().min(1).max(100);
const projectParams = z.strictObject({ id });
const designParams = z.strictObject({ id, designId: id });
const notes = z.string().max(DESIGN_LIMITS.maxNotesLength);
const machine = { field: 'status', moves: DESIGN_STATUS_MOVES };

export const designSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  name: z.string(),
  kind: z.enum(DESIGN_KINDS),
  sceneId: z.string().describe('The scene it was drawn on, or empty.'),
  notes: z.string(),
  status: z.enum(DESIGN_STATUSES),
  createdBy: z.string(),
  sealedAt: z.string().describe('Empty until sealed.'),
  sealedByPrincipal: z.string().describe('The member or token that sent the confirmed seal.'),
  sealedByClaim: z
    .string()
    .describe('X-Agent-Confirmed-By as sent with the seal: who the caller says authorised it. A claim.'),
  sealNote: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  opId: z.string(),
});

const designWrite = (write: capture.DesignWrite) => writeResult('design', write.design, write.meta);

export const designEndpoints: EndpointDef[] = [
  defineEndpoint({
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
      name: z.string().trim().min(1).max(DESIGN_LIMITS.maxNameLength),
      kind: z.enum(DESIGN_KINDS),
      sceneId: id.optional(),
      notes: notes.optional(),
      opId: opIdField,
    }),
    response: writeResponse('design', designSchema),
    errors: [
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_too_long',
      'field_invalid_enum',
      'unknown_field',
    ],
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
  }),
  defineEndpoint({
    operationId: 'listDesigns',
    method: 'GET',
    path: '/projects/:id/designs',
    tag: 'Designs',
    summary: "A project's designs, newest first, drafts and sealed.",
    auth: 'scope',
    scope: { action: 'read', kind: 'deliverable' },
    params: projectParams,
    projectParam: 'id',
    list: true,
    query: z.strictObject({ ...pageQuery }),
    response: pageResponse(designSchema),
    errors: ['not_found', 'field_invalid'],
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
  }),
  defineEndpoint({
    operationId: 'getDesign',
    method: 'GET',
    path: '/projects/:id/designs/:designId',
    tag: 'Designs',
    summary: 'One design: what it draws, its status and, once sealed, who sealed it and when.',
    auth: 'scope',
    scope: { action: 'read', kind: 'deliverable' },
    params: designParams,
    projectParam: 'id',
    response: z.object({ design: designSchema }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => ({
      body: {
        design: await callUnary(
          clients.capture,
          'getDesign',
          { projectId: params.id, designId: params.designId },
          ctx,
        ),
      },
    }),
  }),
  defineEndpoint({
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
    errors: [
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_too_long',
      'unknown_field',
      'conflict',
      'confirmation_required',
    ],
    handle: async ({ params, body, ctx, clients }) =>
      designWrite(
        await callUnary(
          clients.capture,
          'sealDesign',
          { projectId: params.id, designId: params.designId, note: body.note ?? '' },
          ctx,
        ),
      ),
  }),
];
