// Capture sessions and reconstruction runs (spec: Capture session, the capture and process
// endpoints; ENDPOINTS rows 33–36, 72, 73). Served by capture.CaptureService. Field values and
// manifest limits are data in contracts/src/capture.ts, stated here in the OpenAPI document.
import {
  ABORT_REASONS,
  CAPTURE_ENGINES,
  CAPTURE_LIMITS,
  CAPTURE_MODES,
  CAPTURE_QUALITIES,
  CAPTURE_SESSION_MOVES,
  CAPTURE_SESSION_STATUSES,
  CAPTURE_SOURCES,
  ENGINE_MODES,
  RUN_STATUSES,
} from '@fieldops/contracts';
import { AppError } from '@fieldops/kit/errors';
import type { RequestContext } from '@fieldops/kit/context';
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import { IDEMPOTENCY_KEY_MAX } from '../limits.js';
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
const sessionParams = z.strictObject({ id, sessionId: id });
const runParams = z.strictObject({ id, runId: id });
const sceneParams = z.strictObject({ id, sceneId: id });
const artifactParams = z.strictObject({ id, artifactId: id });

const bounds = z.object({
  minX: z.number(),
  minY: z.number(),
  minZ: z.number(),
  maxX: z.number(),
  maxY: z.number(),
  maxZ: z.number(),
});

export const sceneSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  runId: z.string(),
  captureId: z.string(),
  kind: z.string().describe('point-cloud, surface, orthomosaic or model.'),
  pointCount: z.number().int(),
  bounds: bounds.optional().describe('Metres, in the capture’s own coordinates.'),
  formats: z.array(z.string()).describe('Formats the scene is stored in.'),
  sceneTag: z.string(),
  artifacts: z.array(
    z.object({ id: z.string(), name: z.string(), contentType: z.string(), size: z.number().int() }),
  ),
  exportFormats: z.array(z.string()).describe('Formats it can be exported to on this platform.'),
  createdAt: z.string(),
});
const text = z.string().max(CAPTURE_LIMITS.maxTextLength);
const GIB = 1024 ** 3;

const limitsSentence = `At most ${CAPTURE_LIMITS.maxFrames} files, each at most ${CAPTURE_LIMITS.maxFrameBytes / GIB} GiB, ${CAPTURE_LIMITS.maxCaptureBytes / GIB} GiB in all.`;
const engineSentence = Object.entries(ENGINE_MODES)
  .map(([engine, modes]) => `${engine}: ${modes.join(', ')}`)
  .join('; ');

const frameEntry = z.strictObject({
  name: text.optional().describe('The file name on the client (optional); its extension is kept in the key.'),
  contentType: z
    .string()
    .min(1)
    .max(255)
    .describe('Media type of the file; the PUT URL accepts exactly this Content-Type.'),
  size: z
    .number()
    .int()
    .min(1)
    .max(CAPTURE_LIMITS.maxFrameBytes)
    .describe(
      'Declared size in bytes: advisory, for a fast refusal. Finalize meters the bytes actually stored.',
    ),
});

const frame = z.object({
  index: z.number().int(),
  name: z.string(),
  contentType: z.string(),
  declaredSize: z.number(),
  key: z.string().describe("Minted by the server inside the tenant's namespace."),
  storedSize: z.number().optional().describe('Bytes actually stored, once finalized.'),
});

const money = z.object({ cents: z.number().int(), currency: z.string() });

export const captureSessionSchema = z.object({
  id: z.string().describe('The sessionId.'),
  projectId: z.string(),
  status: z.enum(CAPTURE_SESSION_STATUSES),
  source: z.string(),
  device: z.string(),
  capturedBy: z.string(),
  depth: z.boolean().optional(),
  confidence: z.boolean().optional(),
  control: z.boolean().optional(),
  hasLidar: z.boolean().optional(),
  mode: z.string(),
  engine: z.string(),
  quality: z.string(),
  frames: z.array(frame).describe('The expected set: one entry per file, with its key.'),
  declaredBytes: z.number(),
  storedBytes: z.number().optional().describe('The metered bytes, measured by the store at finalize.'),
  abortReason: z.string(),
  abortedAt: z.string(),
  finalizedAt: z.string(),
  runId: z.string().describe('The reconstruction run finalize queued.'),
  fee: money.optional().describe('The flat upload fee billed when the upload was cancelled.'),
  abortOverridden: z.boolean().describe('A finalize that raced an abort won over it.'),
  createdAt: z.string(),
  updatedAt: z.string(),
  opId: z.string(),
});

const uploadUrl = z.object({
  index: z.number().int(),
  key: z.string(),
  method: z.literal('PUT'),
  url: z.string(),
  headers: z.record(z.string(), z.string()).describe('Send exactly these headers (the pinned Content-Type).'),
  expiresAt: z.string(),
});

export const runSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  captureId: z.string(),
  status: z.enum(RUN_STATUSES),
  trigger: z.string().describe('finalize or process.'),
  mode: z.string(),
  engine: z.string(),
  quality: z.string(),
  structureSpanM: z.number().optional(),
  sceneTag: z.string(),
  attempts: z
    .number()
    .int()
    .describe('Attempts started; a worker that dies mid-run costs one, and the run is retried.'),
  progress: z.number().describe('0 to 1.'),
  phase: z.string(),
  error: z.string(),
  sceneId: z.string(),
  createdAt: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
});

/** presign's body `idempotencyKey` is one more spelling of opId / Idempotency-Key. */
function withBodyKey(ctx: RequestContext, bodyKey: string | undefined): RequestContext {
  if (!bodyKey) return ctx;
  if (ctx.idempotencyKey && ctx.idempotencyKey !== bodyKey) {
    throw new AppError(
      'field_invalid',
      'idempotencyKey names a different key than opId or the Idempotency-Key header; send one, or the same value.',
      { field: 'idempotencyKey' },
    );
  }
  return { ...ctx, idempotencyKey: bodyKey };
}

const sessionWrite = (write: { session?: object; meta?: Parameters<typeof writeResult>[2] }) =>
  writeResult('session', write.session, write.meta);

export const captureEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'presignCapture',
    method: 'POST',
    path: '/projects/:id/capture/presign',
    tag: 'Capture',
    summary: 'Open a capture session: one short-lived PUT URL per file, pinned to its declared content type.',
    description: `frames is the manifest: one entry per file with contentType and a declared size (advisory). ${limitsSentence} The server mints every object key in the tenant's namespace and records them as the expected set; the session starts uploading. Engines and the modes they produce: ${engineSentence}; an engine that cannot process the files (images with no photogrammetry engine configured, say) is refused here, before anything is uploaded. Exactly once by opId, idempotencyKey or Idempotency-Key; a replay answers fresh URLs for the same keys.`,
    auth: 'scope',
    scope: { action: 'create', kind: 'capture' },
    params: projectParams,
    projectParam: 'id',
    idempotent: true,
    dryRun: true,
    machine: { field: 'status', moves: CAPTURE_SESSION_MOVES },
    body: z.strictObject({
      source: z.enum(CAPTURE_SOURCES).optional().describe('Default drone.'),
      device: text.optional(),
      capturedBy: text.optional(),
      frames: z.array(frameEntry).min(1).max(CAPTURE_LIMITS.maxFrames),
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
    errors: [
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_required',
      'field_invalid',
      'field_invalid_enum',
      'unknown_field',
      'conflict',
      'unavailable',
    ],
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
  }),
  defineEndpoint({
    operationId: 'finalizeCapture',
    method: 'POST',
    path: '/projects/:id/capture/:sessionId/finalize',
    tag: 'Capture',
    summary:
      'Finish an upload: verify every expected file is stored, meter the stored bytes, start reconstruction.',
    description:
      'The server checks its own expected keys; a missing (or wrongly typed) upload is 409 conflict listing each one under missing. The bytes metered are those the store holds, never the declared sizes. Idempotent: a repeated finalize answers the finalized session with replayed: true and meters nothing. A finalize racing an abort wins: an abort less than 10 seconds old is overridden (abortOverridden: true) and its fee voided. Takes no body.',
    auth: 'scope',
    scope: { action: 'update', kind: 'capture' },
    params: sessionParams,
    projectParam: 'id',
    idempotent: true,
    dryRun: true,
    machine: { field: 'status', moves: CAPTURE_SESSION_MOVES },
    response: writeResponse('session', captureSessionSchema),
    errors: ['not_found', 'field_required', 'conflict', 'unavailable'],
    handle: async ({ params, ctx, clients }) =>
      sessionWrite(
        await callUnary(
          clients.capture,
          'finalizeCapture',
          { projectId: params.id, sessionId: params.sessionId },
          ctx,
        ),
      ),
  }),
  defineEndpoint({
    operationId: 'abortCapture',
    method: 'POST',
    path: '/projects/:id/capture/:sessionId/abort',
    tag: 'Capture',
    summary:
      'Abort a session that is still uploading; reason=cancelled bills the flat, non-refundable upload fee.',
    description:
      'Only a session still uploading is touched; any other is answered unchanged (replayed: true when already aborted). reason=failed (the default) is never charged; reason=cancelled bills the flat upload fee the operator set, once.',
    auth: 'scope',
    scope: { action: 'update', kind: 'capture' },
    params: sessionParams,
    projectParam: 'id',
    idempotent: true,
    dryRun: true,
    machine: { field: 'status', moves: CAPTURE_SESSION_MOVES },
    query: z.strictObject({ reason: z.enum(ABORT_REASONS).optional().describe('Default failed.') }),
    response: writeResponse('session', captureSessionSchema),
    errors: ['not_found', 'field_invalid_enum'],
    handle: async ({ params, query, ctx, clients }) =>
      sessionWrite(
        await callUnary(
          clients.capture,
          'abortCapture',
          { projectId: params.id, sessionId: params.sessionId, reason: query.reason ?? 'failed' },
          ctx,
        ),
      ),
  }),
  defineEndpoint({
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
      captureId: id
        .optional()
        .describe('A finalized capture (sessionId) of the project; default the newest.'),
      mode: z.enum(CAPTURE_MODES).optional(),
      engine: z.enum(CAPTURE_ENGINES).optional(),
      quality: z.enum(CAPTURE_QUALITIES).optional(),
      structureSpanM: z
        .number()
        .positive()
        .max(100_000)
        .optional()
        .describe('Span of the structure, metres.'),
      sceneTag: text.optional(),
      opId: opIdField,
    }),
    response: writeResponse('run', runSchema),
    errors: [
      'not_found',
      'invalid_json',
      'invalid_body',
      'field_invalid',
      'field_invalid_enum',
      'unknown_field',
      'conflict',
      'unavailable',
    ],
    handle: async ({ params, body, ctx, clients }) => {
      const write = await callUnary(
        clients.capture,
        'processProject',
        {
          projectId: params.id,
          captureId: body.captureId ?? '',
          mode: body.mode ?? '',
          engine: body.engine ?? '',
          quality: body.quality ?? '',
          structureSpanM: body.structureSpanM,
          sceneTag: body.sceneTag ?? '',
        },
        ctx,
      );
      return writeResult('run', write.run, write.meta);
    },
  }),
  defineEndpoint({
    operationId: 'getCapture',
    method: 'GET',
    path: '/projects/:id/capture/:sessionId',
    tag: 'Capture',
    summary:
      'The capture poll target: the session, its expected files and, once finalized, the metered bytes.',
    auth: 'scope',
    scope: { action: 'read', kind: 'capture' },
    params: sessionParams,
    projectParam: 'id',
    response: z.object({ session: captureSessionSchema }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => ({
      body: {
        session: await callUnary(
          clients.capture,
          'getCapture',
          { projectId: params.id, sessionId: params.sessionId },
          ctx,
        ),
      },
    }),
  }),
  defineEndpoint({
    operationId: 'getRun',
    method: 'GET',
    path: '/projects/:id/runs/:runId',
    tag: 'Capture',
    summary: 'The processing poll target: a reconstruction run with its status, progress and attempts.',
    auth: 'scope',
    scope: { action: 'read', kind: 'capture' },
    params: runParams,
    projectParam: 'id',
    response: z.object({ run: runSchema }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => ({
      body: {
        run: await callUnary(clients.capture, 'getRun', { projectId: params.id, runId: params.runId }, ctx),
      },
    }),
  }),
  defineEndpoint({
    operationId: 'listScenes',
    method: 'GET',
    path: '/projects/:id/scenes',
    tag: 'Scenes',
    summary: 'The scenes reconstruction produced for a project, newest first, with their artifacts.',
    auth: 'scope',
    scope: { action: 'read', kind: 'deliverable' },
    params: projectParams,
    projectParam: 'id',
    list: true,
    query: z.strictObject({ ...pageQuery }),
    response: pageResponse(sceneSchema),
    errors: ['not_found', 'field_invalid'],
    handle: async ({ params, query, ctx, clients }) => ({
      body: pageBody(
        await callUnary(
          clients.capture,
          'listScenes',
          { projectId: params.id, page: pageRequest(query) },
          ctx,
        ),
      ),
    }),
  }),
  defineEndpoint({
    operationId: 'getScene',
    method: 'GET',
    path: '/projects/:id/scenes/:sceneId',
    tag: 'Scenes',
    summary: 'One scene: what it is, its extent, its artifacts and the formats it can be exported to.',
    auth: 'scope',
    scope: { action: 'read', kind: 'deliverable' },
    params: sceneParams,
    projectParam: 'id',
    response: z.object({ scene: sceneSchema }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => ({
      body: {
        scene: await callUnary(
          clients.capture,
          'getScene',
          { projectId: params.id, sceneId: params.sceneId },
          ctx,
        ),
      },
    }),
  }),
  defineEndpoint({
    operationId: 'getSceneGeometry',
    method: 'GET',
    path: '/projects/:id/scenes/:sceneId/geometry',
    tag: 'Scenes',
    summary: 'A scene’s geometry: kind, point count, bounds in metres and the artifact holding it.',
    auth: 'scope',
    scope: { action: 'read', kind: 'deliverable' },
    params: sceneParams,
    projectParam: 'id',
    response: z.object({
      geometry: z.object({
        sceneId: z.string(),
        kind: z.string(),
        pointCount: z.number().int(),
        bounds: bounds.optional(),
        unit: z.literal('m'),
        artifactId: z.string().describe('Fetch it through GET /projects/:id/artifacts/:artifactId.'),
      }),
    }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => ({
      body: {
        geometry: await callUnary(
          clients.capture,
          'getSceneGeometry',
          { projectId: params.id, sceneId: params.sceneId },
          ctx,
        ),
      },
    }),
  }),
  defineEndpoint({
    operationId: 'getArtifact',
    method: 'GET',
    path: '/projects/:id/artifacts/:artifactId',
    tag: 'Scenes',
    summary: 'An artifact with a short-lived download link (href) that can be fetched without a token.',
    description: 'The link lives 5 minutes; read the artifact again for a fresh one.',
    auth: 'scope',
    scope: { action: 'read', kind: 'deliverable' },
    params: artifactParams,
    projectParam: 'id',
    response: z.object({
      artifact: z.object({
        id: z.string(),
        projectId: z.string(),
        sceneId: z.string(),
        name: z.string(),
        contentType: z.string(),
        size: z.number().int(),
        href: z.string(),
        expiresAt: z.string(),
      }),
    }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => ({
      body: {
        artifact: await callUnary(
          clients.capture,
          'getArtifact',
          { projectId: params.id, artifactId: params.artifactId },
          ctx,
        ),
      },
    }),
  }),
  defineEndpoint({
    operationId: 'listExportFormats',
    method: 'GET',
    path: '/projects/:id/export-formats',
    tag: 'Scenes',
    summary: 'Formats the project’s scenes can be exported to; a codec that is not installed is absent.',
    description:
      'A scene’s stored format is always listed (via native); conversions are listed only when their program is installed on the platform (via pdal for point clouds, via gdal_translate for rasters).',
    auth: 'scope',
    scope: { action: 'read', kind: 'deliverable' },
    params: projectParams,
    projectParam: 'id',
    response: z.object({
      items: z.array(
        z.object({ id: z.string(), name: z.string(), contentType: z.string(), via: z.string() }),
      ),
    }),
    errors: ['not_found'],
    handle: async ({ params, ctx, clients }) => ({
      body: {
        items: (await callUnary(clients.capture, 'listExportFormats', { projectId: params.id }, ctx)).items,
      },
    }),
  }),
];
