// Capture sessions and reconstruction runs (spec: Capture session, the capture and process
// endpoints; ENDPOINTS rows 33–36, 72, 73). Served by capture.CaptureService. Field values and
// manifest limits are data in contracts/src/capture.ts, stated here in the OpenAPI document.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import {
  CAPTURE_FIELD_LIMITS,
  CAPTURE_LIMITS,
  CAPTURE_SESSION_STATUSES,
  ENGINE_MODES,
  ID_REF_MAX,
  RUN_STATUSES,
  CAPTURE_SESSION_MACHINE,
} from '@fieldops/contracts';
import { AppError, type RequestContext } from '@fieldops/kit';
import { z } from 'zod';
import { writeResponse } from '../../endpoint/common.schemas.js';
import { writeResult } from '../../endpoint/write-result.js';

export const id = z.string().min(1).max(ID_REF_MAX);
export const projectParams = z.strictObject({ id });
export const sessionParams = z.strictObject({ id, sessionId: id });
export const runParams = z.strictObject({ id, runId: id });
export const sceneParams = z.strictObject({ id, sceneId: id });
export const artifactParams = z.strictObject({ id, artifactId: id });

export const bounds = z.object({
  minX: z.number(),
  minY: z.number(),
  minZ: z.number(),
  maxX: z.number(),
  maxY: z.number(),
  maxZ: z.number(),
});

export const reconstructionQualitySchema = z
  .object({
    photosGiven: z.number().int().describe('Photos in the capture.'),
    photosRegistered: z.number().int().describe('Photos placed in the model.'),
    meanReprojectionErrorPx: z
      .number()
      .describe('Mean reprojection error over all the model’s points, pixels.'),
    medianReprojectionErrorPx: z.number(),
    gsdM: z.number().optional().describe('Ground sample distance, metres per pixel.'),
    pointsTotal: z.number().int().describe('Points the model triangulated.'),
    pointsKept: z
      .number()
      .int()
      .describe('Points that passed the keep-filter: the scene and the measurement.'),
    keepFilter: z.object({
      minTrackImages: z.number().int(),
      maxReprojectionErrorPx: z.number(),
      rule: z.string(),
    }),
    alignmentRmseM: z
      .number()
      .describe('RMS distance between the aligned camera centres and their GPS positions, metres.'),
    alignmentPositions: z.number().int().describe('Positions the alignment used.'),
    baseResidualM: z
      .number()
      .optional()
      .describe('The largest RMS residual of a region’s fitted base, metres.'),
    warpCurvaturePerM: z
      .number()
      .optional()
      .describe('A dome measured on the alignment: up = c · r², c in 1/m; present only when significant.'),
    warnings: z
      .array(z.object({ code: z.string(), message: z.string(), action: z.string() }))
      .describe('What a reader of the figures must know, each with what to do.'),
    captureDate: z.object({
      takenAt: z
        .string()
        .describe(
          'When the photos were taken (EXIF DateTimeOriginal, with its offset when the camera wrote one).',
        ),
      source: z.string().describe('exif-with-offset, exif-local-time or none.'),
      firstTakenAt: z.string(),
      lastTakenAt: z.string(),
      uploadedAt: z.string().describe('When the upload was finalized (UTC).'),
    }),
    heightDatum: z.object({
      name: z
        .string()
        .describe(
          'gps-ellipsoidal: z + offsetM is the height above the WGS 84 ellipsoid, as the photos’ GPS records it.',
        ),
      offsetM: z.number(),
      description: z.string(),
    }),
  })
  .meta({ id: 'ReconstructionQuality' });

export const sceneSchema = z
  .object({
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
    reconstruction: reconstructionQualitySchema
      .optional()
      .describe('Photogrammetry scenes: how well the reconstruction went.'),
  })
  .meta({ id: 'Scene' });
export const text = z.string().max(CAPTURE_FIELD_LIMITS.text);
export const GIB = 1024 ** 3;

export const limitsSentence = `At most ${CAPTURE_FIELD_LIMITS.frames} files, each at most ${CAPTURE_LIMITS.maxFrameBytes / GIB} GiB, ${CAPTURE_LIMITS.maxCaptureBytes / GIB} GiB in all.`;
export const engineSentence = Object.entries(ENGINE_MODES)
  .map(([engine, modes]) => `${engine}: ${modes.join(', ')}`)
  .join('; ');

export const frameEntry = z.strictObject({
  name: text.optional().describe('The file name on the client (optional); its extension is kept in the key.'),
  contentType: z
    .string()
    .min(1)
    .max(CAPTURE_FIELD_LIMITS.contentType)
    .describe('Media type of the file; the PUT URL accepts exactly this Content-Type.'),
  size: z
    .number()
    .int()
    .min(1)
    .max(CAPTURE_LIMITS.maxFrameBytes)
    .describe(
      'Declared size in bytes, and the exact length the PUT URL accepts: the URL signs it as Content-Length, so a longer or shorter body is refused (403). Finalize meters the bytes actually stored.',
    ),
});

export const frame = z.object({
  index: z.number().int(),
  name: z.string(),
  contentType: z.string(),
  declaredSize: z.number(),
  key: z.string().describe("Minted by the server inside the tenant's namespace."),
  storedSize: z.number().optional().describe('Bytes actually stored, once finalized.'),
});

export const money = z.object({ cents: z.number().int(), currency: z.string() });

export const captureSessionSchema = z
  .object({
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
  })
  .meta({ id: 'CaptureSession' });

export const uploadUrl = z.object({
  index: z.number().int(),
  key: z.string(),
  method: z.literal('PUT'),
  url: z.string(),
  headers: z.record(z.string(), z.string()).describe('Send exactly these headers (the pinned Content-Type).'),
  expiresAt: z.string(),
});

export const runSchema = z
  .object({
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
    reconstruction: reconstructionQualitySchema
      .optional()
      .describe('Photogrammetry runs that succeeded: how well the reconstruction went.'),
  })
  .meta({ id: 'ProcessingRun' });

/** presign's body `idempotencyKey` is one more spelling of opId / Idempotency-Key. */
export function withBodyKey(ctx: RequestContext, bodyKey: string | undefined): RequestContext {
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

export const sessionWrite = (write: { session?: object; meta?: Parameters<typeof writeResult>[2] }) =>
  writeResult('session', write.session, write.meta);

/**
 * What finalizing and aborting a session share (an idempotent, rehearsable move of the session
 * along its machine), but for their id, words, query and handler; `path` is the endpoint's own,
 * written by its file.
 */
export const sessionMoveEndpoint = (
  path: '/projects/:id/capture/:sessionId/finalize' | '/projects/:id/capture/:sessionId/abort',
) => ({
  method: 'POST' as const,
  path,
  tag: 'Capture',
  auth: 'scope' as const,
  scope: { action: 'update' as const, kind: 'capture' as const },
  params: sessionParams,
  projectParam: 'id',
  idempotent: true,
  dryRun: true,
  machine: { field: 'status', moves: CAPTURE_SESSION_MACHINE.moves },
  response: writeResponse('session', captureSessionSchema),
});
