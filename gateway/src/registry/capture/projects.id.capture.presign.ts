// POST /api/v1/projects/:id/capture/presign: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./capture.schemas.ts; listed by ../families.gen.ts.
import {
  CAPTURE_ENGINES,
  CAPTURE_FIELD_LIMITS,
  CAPTURE_MODES,
  CAPTURE_QUALITIES,
  CAPTURE_SOURCES,
  CAPTURE_SESSION_MACHINE,
} from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { IDEMPOTENCY_KEY_MAX } from '../../limits.ts';
import { opIdField, writeResponse } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import {
  projectParams,
  text,
  limitsSentence,
  engineSentence,
  frameEntry,
  captureSessionSchema,
  uploadUrl,
  withBodyKey,
  sessionWrite,
} from './capture.schemas.ts';

export const presignCapture = defineEndpoint({
  operationId: 'presignCapture',
  method: 'POST',
  path: '/projects/:id/capture/presign',
  tag: 'Capture',
  summary: 'Open a capture session: one short-lived PUT URL per file, pinned to its declared content type.',
  description: `frames is the manifest: one entry per file with contentType and a declared size. ${limitsSentence} Each upload URL accepts exactly the declared type and size (send every header of its headers: Content-Type, Content-Length, If-None-Match: *) and is written once: a second PUT once the bytes are in is refused (409 conflict, or 412 on AWS S3). The server mints every object key and records them as the expected set. Engines and the modes they produce: ${engineSentence}; an engine that cannot process the files is refused here, before any upload. A replay of its key answers fresh URLs for the same objects.`,
  auth: 'scope',
  scope: { action: 'create', kind: 'capture' },
  params: projectParams,
  projectParam: 'id',
  idempotent: true,
  dryRun: true,
  machine: { field: 'status', moves: CAPTURE_SESSION_MACHINE.moves },
  body: z.strictObject({
    source: z.enum(CAPTURE_SOURCES).optional().describe('Default drone.'),
    device: text.optional(),
    capturedBy: text.optional(),
    frames: z.array(frameEntry).min(1).max(CAPTURE_FIELD_LIMITS.frames),
    depth: z.boolean().optional().describe('The files include depth maps.'),
    confidence: z.boolean().optional().describe('The files include depth confidence maps.'),
    control: z.boolean().optional().describe('Surveyed ground control was used.'),
    hasLidar: z.boolean().optional(),
    mode: z.enum(CAPTURE_MODES).optional().describe("Default: the project's persisted mode, else volumes."),
    engine: z
      .enum(CAPTURE_ENGINES)
      .optional()
      .describe(
        "Default: the project's persisted engine, else builtin for point clouds, and for images colmap when the platform has COLMAP, else nodeodm.",
      ),
    quality: z.enum(CAPTURE_QUALITIES).optional().describe('Default standard.'),
    idempotencyKey: z.string().min(1).max(IDEMPOTENCY_KEY_MAX).optional().describe('Same as opId.'),
    opId: opIdField,
  }),
  response: writeResponse('session', captureSessionSchema).extend({ uploads: z.array(uploadUrl) }),
  handle: async ({ params, body, ctx, clients }) => {
    const { idempotencyKey, opId, ...fields } = body;
    const keyed = withBodyKey(ctx, idempotencyKey);
    const write = await callUnary(
      clients.capture,
      'presignCapture',
      {
        projectId: params.id,
        source: fields.source ?? '',
        device: fields.device ?? '',
        capturedBy: fields.capturedBy ?? '',
        frames: fields.frames.map((entry) => ({
          name: entry.name ?? '',
          contentType: entry.contentType,
          size: entry.size,
        })),
        depth: fields.depth,
        confidence: fields.confidence,
        control: fields.control,
        hasLidar: fields.hasLidar,
        mode: fields.mode ?? '',
        engine: fields.engine ?? '',
        quality: fields.quality ?? '',
        opId: opId ?? keyed.idempotencyKey,
      },
      keyed,
    );
    const result = sessionWrite(write);
    return write.meta?.rehearsal ? result : { ...result, body: { ...result.body, uploads: write.uploads } };
  },
});
