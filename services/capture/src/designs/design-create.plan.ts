// Planning POST /projects/:id/designs: a draft design on the project, drawn (optionally) on one of
// the project's scenes. The project is checked by the service before planning.
import { DESIGN_FIELD_LIMITS, DESIGN_KINDS, DESIGN_STATUS_MACHINE } from '@fieldops/contracts';
import { actorOf, setFields, createEffect, eventEffect, compact } from '@fieldops/kit/domain';
import { type RequestContext, AppError, notFound, newId, nowIso } from '@fieldops/kit';
import { requireTenantId, type WritePlan } from '@fieldops/kit/write';
import type { capture } from '@fieldops/proto';
import { DESIGNS, SCENES } from '../collections.ts';
import type { CaptureDeps } from '../deps.ts';
import { emitCaptureEvent } from '../events.ts';
import { enumField } from '../fields.ts';
import type { SceneDoc } from '../runs/run-lease.ts';
import { DESIGN_CHANGE_FIELDS, toDesignView, type DesignDoc } from './design.model.ts';

/** Trimmed text: field_required when `required` and empty, field_too_long past `max`. */
export function designText(field: string, value: string, max: number, required = false): string {
  const trimmed = value.trim();
  if (required && !trimmed) throw new AppError('field_required', `${field} is required.`, { field });
  if (trimmed.length > max) {
    throw new AppError('field_too_long', `${field} must be at most ${max} characters.`, { field, max });
  }
  return trimmed;
}

async function requireSceneOf(deps: CaptureDeps, tenantId: string, projectId: string, sceneId: string) {
  const scene = await deps.store.get<SceneDoc>(SCENES, tenantId, sceneId);
  if (!scene || scene.projectId !== projectId) throw notFound('scene', sceneId);
}

export async function planCreateDesign(
  deps: CaptureDeps,
  req: capture.CreateDesignRequest,
  ctx: RequestContext,
): Promise<WritePlan<capture.Design>> {
  const tenantId = requireTenantId(ctx);
  const name = designText('name', req.name, DESIGN_FIELD_LIMITS.name, true);
  const kind = enumField('kind', req.kind, DESIGN_KINDS);
  if (!kind)
    throw new AppError('field_required', 'kind is required.', { field: 'kind', allowed: DESIGN_KINDS });
  const notes = designText('notes', req.notes, DESIGN_FIELD_LIMITS.notes);
  const sceneId = req.sceneId.trim();
  if (sceneId) await requireSceneOf(deps, tenantId, req.projectId, sceneId);
  const now = nowIso();
  const doc: DesignDoc = compact({
    id: newId('dsn'),
    tenantId,
    version: 1,
    projectId: req.projectId,
    name,
    kind,
    sceneId: sceneId || undefined,
    notes: notes || undefined,
    status: DESIGN_STATUS_MACHINE.initial,
    createdBy: actorOf(ctx),
    createdAt: now,
    updatedAt: now,
    opId: ctx.idempotencyKey || undefined,
  });
  const design = toDesignView(doc);
  return {
    ops: [
      { op: 'insert', collection: DESIGNS, doc },
      emitCaptureEvent(ctx, 'design.created', { kind: 'design', id: doc.id }, { design }),
    ],
    result: design,
    created: true,
    rehearsal: {
      willDo: `Record a draft ${kind} design "${name}" on project ${req.projectId}.`,
      effects: [
        createEffect('design', doc.id, setFields(doc, DESIGN_CHANGE_FIELDS)),
        eventEffect('design.created', doc.id),
      ],
    },
  };
}
