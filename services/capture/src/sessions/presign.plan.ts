// Planning POST /projects/:id/capture/presign: validate the manifest and the other fields, mint
// one key per file in the tenant's namespace, and create the session `uploading` with that
// expected key set. The presigned URLs are minted after the commit (presign-urls.ts), so a replay
// answers fresh URLs for the same keys.
import {
  CAPTURE_ENGINES,
  CAPTURE_MODES,
  CAPTURE_QUALITIES,
  CAPTURE_SESSION_MACHINE,
  CAPTURE_SOURCES,
} from '@fieldops/contracts';
import { createEffect, eventEffect, compact } from '@fieldops/kit/domain';
import { type RequestContext, newId, nowIso } from '@fieldops/kit';
import type { WritePlan } from '@fieldops/kit/write';
import type { capture } from '@fieldops/proto';
import { CAPTURE_SESSIONS } from '../collections.ts';
import type { CaptureDeps } from '../deps.ts';
import { emitCaptureEvent } from '../events.ts';
import { enumField, textField } from '../fields.ts';
import { assertFeasible, defaultEngine, DEFAULT_MODE } from '../run-model/feasibility.ts';
import { readProcessingSettings } from '../run-model/processing-settings.ts';
import { validateManifest } from '../session-model/manifest.ts';
import { toSessionView, type CaptureSessionDoc } from '../session-model/session.model.ts';

export async function planPresign(
  deps: CaptureDeps,
  tenantId: string,
  req: capture.PresignCaptureRequest,
  ctx: RequestContext,
): Promise<WritePlan<capture.CaptureSession>> {
  const id = newId('cap');
  const { frames, declaredBytes } = validateManifest(tenantId, id, req.frames);
  const persisted = await readProcessingSettings(deps.store, tenantId, req.projectId);
  const mode = enumField('mode', req.mode, CAPTURE_MODES) ?? persisted?.mode ?? DEFAULT_MODE;
  const available = deps.settings.engines;
  const engine =
    enumField('engine', req.engine, CAPTURE_ENGINES) ?? persisted?.engine ?? defaultEngine(frames, available);
  // Refused here, up front, rather than after the upload: nothing could process these files.
  assertFeasible(frames, { engine, mode }, available);
  const now = nowIso();
  const doc: CaptureSessionDoc = compact({
    id,
    tenantId,
    version: 1,
    projectId: req.projectId,
    status: CAPTURE_SESSION_MACHINE.initial,
    source: enumField('source', req.source, CAPTURE_SOURCES) ?? 'drone',
    device: textField('device', req.device),
    capturedBy: textField('capturedBy', req.capturedBy),
    depth: req.depth,
    confidence: req.confidence,
    control: req.control,
    hasLidar: req.hasLidar,
    mode,
    engine,
    quality: enumField('quality', req.quality, CAPTURE_QUALITIES) ?? 'standard',
    frames,
    declaredBytes,
    createdAt: now,
    updatedAt: now,
    opId: ctx.idempotencyKey || undefined,
  });
  const session = toSessionView(doc);
  return {
    ops: [
      { op: 'insert', collection: CAPTURE_SESSIONS, doc },
      emitCaptureEvent(
        ctx,
        'capture.presigned',
        { kind: 'capture', id },
        {
          projectId: doc.projectId,
          frames: frames.length,
          declaredBytes,
        },
      ),
    ],
    result: session,
    created: true,
    rehearsal: {
      willDo: `Open a capture session on project ${doc.projectId} expecting ${frames.length} file(s) (${declaredBytes} bytes declared), processed by ${engine} as ${mode}.`,
      effects: [
        createEffect('capture', id, [
          { field: 'status', to: doc.status },
          { field: 'frames', to: String(frames.length) },
        ]),
        eventEffect('capture.presigned', id),
      ],
    },
  };
}
