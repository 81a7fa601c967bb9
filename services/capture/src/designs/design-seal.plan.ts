// Planning POST /projects/:id/designs/:designId/seal: binding, so the gateway reaches it only
// through the two-phase confirmation (the endpoint declares it). Sealed is final: sealing again
// answers the sealed design unchanged (replayed), whatever the note.
import { DESIGN_FIELD_LIMITS, DESIGN_STATUS_MACHINE } from '@fieldops/contracts';
import { actorOf, diffFields, eventEffect, updateEffect, compact } from '@fieldops/kit/domain';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { capture } from '@fieldops/proto';
import { DESIGNS } from '../collections.ts';
import { emitCaptureEvent } from '../events.ts';
import { designText } from './design-create.plan.ts';
import { DESIGN_CHANGE_FIELDS, toDesignView, type DesignDoc } from './design.model.ts';

const SEALED = DESIGN_STATUS_MACHINE.triggers.seal.to;

function unchanged(doc: DesignDoc): WritePlan<capture.Design> {
  return unchangedPlan(
    toDesignView(doc),
    `Nothing would change: design ${doc.id} was sealed at ${doc.sealedAt ?? ''}.`,
  );
}

export function planSealDesign(
  doc: DesignDoc,
  req: capture.SealDesignRequest,
  ctx: RequestContext,
): WritePlan<capture.Design> {
  if (doc.status === SEALED) return unchanged(doc);
  if (!DESIGN_STATUS_MACHINE.canFire(doc.status, 'seal')) {
    throw new AppError('conflict', `Design ${doc.id} is ${doc.status} and cannot be sealed.`, {
      status: doc.status,
    });
  }
  const note = designText('note', req.note, DESIGN_FIELD_LIMITS.note);
  const claim = (ctx.agent?.confirmedBy ?? '').trim().slice(0, DESIGN_FIELD_LIMITS.name);
  const at = nowIso();
  const next: DesignDoc = compact({
    ...doc,
    status: SEALED,
    sealedAt: at,
    sealedByPrincipal: actorOf(ctx),
    sealedByClaim: claim || undefined,
    sealNote: note || undefined,
    version: doc.version + 1,
    updatedAt: at,
  });
  const changes = diffFields(doc, next, DESIGN_CHANGE_FIELDS);
  const design = toDesignView(next);
  return {
    ops: [
      { op: 'replace', collection: DESIGNS, doc: next, expectedVersion: doc.version },
      emitCaptureEvent(ctx, 'design.sealed', { kind: 'design', id: doc.id }, { design }),
    ],
    result: design,
    created: false,
    rehearsal: {
      willDo: `Seal ${doc.kind} design "${doc.name}" (${doc.id}) on project ${doc.projectId}: binding and final, it can never be changed afterwards.${claim ? ` Recorded as authorised by "${claim}" (the caller's claim).` : ''}`,
      effects: [updateEffect('design', doc.id, changes), eventEffect('design.sealed', doc.id)],
    },
  };
}
