// Capture sessions and reconstruction runs (spec: Capture session, the capture and process
// endpoints; ENDPOINTS rows 33–36, 72, 73). Served by capture.CaptureService. Field values and
// manifest limits are data in contracts/src/capture.ts, stated here in the OpenAPI document.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import {
  CAPTURE_FIELD_LIMITS,
  CAPTURE_LIMITS,
  ENGINE_MODES,
  ID_REF_MAX,
  CAPTURE_SESSION_MACHINE,
} from '@fieldops/contracts';
import { AppError, type RequestContext } from '@fieldops/kit';
import { z } from 'zod';
import { writeResponse } from '../../endpoint/common.schemas.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import { captureSessionSchema } from './capture.gen.ts';

export const id = z.string().min(1).max(ID_REF_MAX);
export const projectParams = z.strictObject({ id });
export const sessionParams = z.strictObject({ id, sessionId: id });
export const runParams = z.strictObject({ id, runId: id });
export const sceneParams = z.strictObject({ id, sceneId: id });
export const artifactParams = z.strictObject({ id, artifactId: id });

// The response shapes are derived from capture.proto (npm run gen); what differs over HTTP is here.
export {
  bounds,
  captureSessionSchema,
  reconstructionQualitySchema,
  runSchema,
  sceneSchema,
} from './capture.gen.ts';
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

export const uploadUrl = z.object({
  index: z.number().int(),
  key: z.string(),
  method: z.literal('PUT'),
  url: z.string(),
  headers: z.record(z.string(), z.string()).describe('Send exactly these headers (the pinned Content-Type).'),
  expiresAt: z.string(),
});

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
