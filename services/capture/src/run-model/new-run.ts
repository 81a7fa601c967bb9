import { RUN_STATUS_MACHINE } from '@fieldops/contracts';
import { type RequestContext, newId, nowIso } from '@fieldops/kit';
import type { WriteOp } from '@fieldops/kit/store';
import { RUNS } from '../collections.ts';
import { emitCaptureEvent } from '../events.ts';
import { MAX_RUN_ATTEMPTS, toRunView, type RunDoc } from './run.model.ts';

export interface RunChoice {
  projectId: string;
  captureId: string;
  trigger: RunDoc['trigger'];
  mode: string;
  engine: string;
  quality: string;
  structureSpanM?: number;
  sceneTag?: string;
}

export function newRunOps(
  ctx: RequestContext,
  tenantId: string,
  choice: RunChoice,
): { doc: RunDoc; ops: WriteOp[] } {
  const now = nowIso();
  const doc: RunDoc = {
    id: newId('run'),
    tenantId,
    version: 1,
    ...choice,
    status: RUN_STATUS_MACHINE.initial,
    inFlightCaptureId: choice.captureId,
    attempts: 0,
    maxAttempts: MAX_RUN_ATTEMPTS,
    progress: 0,
    phase: RUN_STATUS_MACHINE.initial,
    createdAt: now,
    updatedAt: now,
    tenantCurrency: ctx.tenant?.currency ?? '',
    tenantDefaultVertical: ctx.tenant?.defaultVertical ?? '',
  };
  return {
    doc,
    ops: [
      { op: 'insert', collection: RUNS, doc },
      emitCaptureEvent(ctx, 'run.queued', { kind: 'run', id: doc.id }, { run: toRunView(doc) }),
    ],
  };
}
