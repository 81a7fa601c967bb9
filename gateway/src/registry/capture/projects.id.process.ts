// POST /api/v1/projects/:id/process: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; listed by ../families.gen.ts.
import { CAPTURE_ENGINES, CAPTURE_FIELD_LIMITS, CAPTURE_MODES, CAPTURE_QUALITIES } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { opIdField, writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { forwardWrite } from '../../endpoint/write-result.ts';
import { id, projectParams, text, engineSentence, runSchema } from './capture.schemas.ts';

export const processProject = defineEndpoint({
  operationId: 'processProject',
  method: 'POST',
  path: '/projects/:id/process',
  tag: 'Capture',
  summary:
    "Queue a reconstruction run: with no body, the newest capture on the project's persisted mode and engine.",
  description: `An explicit mode or engine is persisted on the project for later calls. Engines and their modes: ${engineSentence}. An infeasible engine or mode is refused (field_invalid, with the feasible choices) before anything is queued; a capture with a run already queued or running is refused with 409 conflict naming that run. Spends one compute run.`,
  auth: 'scope',
  scope: { action: 'update', kind: 'capture' },
  params: projectParams,
  projectParam: 'id',
  idempotent: true,
  dryRun: true,
  budgets: [{ kind: 'compute', amount: 1 }],
  body: z.strictObject({
    captureId: id.optional().describe('A finalized capture (sessionId) of the project; default the newest.'),
    mode: z.enum(CAPTURE_MODES).optional(),
    engine: z.enum(CAPTURE_ENGINES).optional(),
    quality: z.enum(CAPTURE_QUALITIES).optional(),
    structureSpanM: z
      .number()
      .positive()
      .max(CAPTURE_FIELD_LIMITS.structureSpanM)
      .optional()
      .describe('Span of the structure, metres.'),
    sceneTag: text.optional(),
    opId: opIdField,
  }),
  response: writeResponse('run', runSchema),
  handle: ({ params, body, ctx, clients }) => {
    const request = {
      projectId: params.id,
      captureId: body.captureId ?? '',
      mode: body.mode ?? '',
      engine: body.engine ?? '',
      quality: body.quality ?? '',
      structureSpanM: body.structureSpanM,
      sceneTag: body.sceneTag ?? '',
    };
    return forwardWrite('run', callUnary(clients.capture, 'processProject', request, ctx));
  },
});
