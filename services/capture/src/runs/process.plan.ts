// Planning POST /projects/:id/process. With no body: the project's newest finalized capture, on
// the project's persisted mode and engine. An explicit mode or engine is persisted on the
// project with the run. Refused before anything is queued when the choice is infeasible or the
// capture already has a run in flight (the unique in-flight key makes that hold under races).
import {
  CAPTURE_ENGINES,
  CAPTURE_FIELD_LIMITS,
  CAPTURE_MODES,
  CAPTURE_QUALITIES,
  CAPTURE_SESSION_MACHINE,
  IN_FLIGHT_RUN_STATUSES,
} from '@fieldops/contracts';
import { createEffect, eventEffect } from '@fieldops/kit/domain';
import { type RequestContext, AppError, notFound } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import type { WritePlan } from '@fieldops/kit/write';
import type { capture } from '@fieldops/proto';
import { CAPTURE_SESSIONS, RUNS } from '../collections.ts';
import type { CaptureDeps } from '../deps.ts';
import { enumField, textField } from '../fields.ts';
import { meter } from '../metering/usage.ts';
import type { CaptureSessionDoc } from '../session-model/session.model.ts';
import { assertFeasible, defaultEngine, DEFAULT_MODE } from '../run-model/feasibility.ts';
import { newRunOps } from '../run-model/new-run.ts';
import { persistChoice, readProcessingSettings } from '../run-model/processing-settings.ts';
import { toRunView, type RunDoc } from '../run-model/run.model.ts';

/** Only a capture the session machine calls finalized is processed. */
const FINALIZED = CAPTURE_SESSION_MACHINE.triggers.finalize.to;

async function captureToProcess(
  store: DocumentStore,
  tenantId: string,
  projectId: string,
  captureId: string,
): Promise<CaptureSessionDoc> {
  if (captureId) {
    const doc = await store.get<CaptureSessionDoc>(CAPTURE_SESSIONS, tenantId, captureId);
    if (!doc || doc.projectId !== projectId) throw notFound('capture', captureId);
    if (doc.status !== FINALIZED) {
      throw new AppError(
        'conflict',
        `Capture ${captureId} is ${doc.status}; only a finalized capture can be processed.`,
        {
          status: doc.status,
        },
      );
    }
    return doc;
  }
  const [newest] = await store.find<CaptureSessionDoc>(
    CAPTURE_SESSIONS,
    tenantId,
    { projectId, status: FINALIZED },
    { sort: { field: 'finalizedAt', direction: 'desc' }, limit: 1 },
  );
  if (!newest) {
    throw new AppError(
      'conflict',
      `Project ${projectId} has no finalized capture to process; presign, upload and finalize one first.`,
    );
  }
  return newest;
}

function structureSpan(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value <= 0 || value > CAPTURE_FIELD_LIMITS.structureSpanM) {
    throw new AppError(
      'field_invalid',
      `structureSpanM must be a length in metres above 0 and at most ${CAPTURE_FIELD_LIMITS.structureSpanM}.`,
      {
        field: 'structureSpanM',
      },
    );
  }
  return value;
}

export async function planProcess(
  deps: CaptureDeps,
  tenantId: string,
  req: capture.ProcessProjectRequest,
  ctx: RequestContext,
): Promise<WritePlan<capture.Run>> {
  const requested = {
    mode: enumField('mode', req.mode, CAPTURE_MODES),
    engine: enumField('engine', req.engine, CAPTURE_ENGINES),
  };
  const quality = enumField('quality', req.quality, CAPTURE_QUALITIES);
  const span = structureSpan(req.structureSpanM);
  const sceneTag = textField('sceneTag', req.sceneTag);
  const source = await captureToProcess(deps.store, tenantId, req.projectId, req.captureId.trim());
  const persisted = await readProcessingSettings(deps.store, tenantId, req.projectId);
  const mode = requested.mode ?? persisted?.mode ?? DEFAULT_MODE;
  const available = deps.settings.engines;
  const engine = requested.engine ?? persisted?.engine ?? defaultEngine(source.frames, available);
  assertFeasible(source.frames, { engine, mode }, available);

  const inFlight = await deps.store.findOne<RunDoc>(RUNS, tenantId, { inFlightCaptureId: source.id });
  if (inFlight && IN_FLIGHT_RUN_STATUSES.includes(inFlight.status)) {
    throw new AppError(
      'conflict',
      `Capture ${source.id} already has run ${inFlight.id} ${inFlight.status}; poll it at /projects/${req.projectId}/runs/${inFlight.id} and process again once it is done.`,
      { runId: inFlight.id, status: inFlight.status },
    );
  }
  const run = newRunOps(ctx, tenantId, {
    projectId: req.projectId,
    captureId: source.id,
    trigger: 'process',
    mode,
    engine,
    quality: quality ?? source.quality,
    ...(span !== undefined ? { structureSpanM: span } : {}),
    ...(sceneTag ? { sceneTag } : {}),
  });
  const metered = meter(ctx, tenantId, {
    kind: 'compute_run',
    subjectId: run.doc.id,
    projectId: req.projectId,
    quantity: 1,
    unit: 'run',
  });
  return {
    ops: [...run.ops, ...metered.ops, ...persistChoice(tenantId, req.projectId, persisted, requested)],
    result: toRunView(run.doc),
    created: true,
    rehearsal: {
      willDo: `Queue a ${mode} reconstruction of capture ${source.id} on engine ${engine} (one compute run).`,
      effects: [
        createEffect('run', run.doc.id, [{ field: 'status', to: run.doc.status }]),
        eventEffect('run.queued', run.doc.id),
      ],
    },
  };
}
