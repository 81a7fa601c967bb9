// A design as stored, and its view. A design is drawn work on a project (a solar layout, a site
// plan, a survey design), recorded as a draft and sealed once, by a person's confirmation.
import type { DesignKind, DesignStatus } from '@fieldops/contracts';
import type { Doc } from '@fieldops/kit/store/port';
import type { capture } from '@fieldops/proto';

export interface DesignDoc extends Doc {
  projectId: string;
  name: string;
  kind: DesignKind;
  sceneId?: string;
  notes?: string;
  status: DesignStatus;
  createdBy: string;
  sealedAt?: string;
  sealedByPrincipal?: string;
  sealedByClaim?: string;
  sealNote?: string;
  createdAt: string;
  updatedAt: string;
  opId?: string;
}

/** Fields a rehearsal and an event report as changed. */
export const DESIGN_CHANGE_FIELDS = [
  'name',
  'kind',
  'sceneId',
  'status',
  'sealedAt',
  'sealedByPrincipal',
  'sealedByClaim',
  'sealNote',
] as const satisfies readonly (keyof DesignDoc)[];

export function toDesignView(doc: DesignDoc): capture.Design {
  return {
    id: doc.id,
    projectId: doc.projectId,
    name: doc.name,
    kind: doc.kind,
    sceneId: doc.sceneId ?? '',
    notes: doc.notes ?? '',
    status: doc.status,
    createdBy: doc.createdBy,
    sealedAt: doc.sealedAt ?? '',
    sealedByPrincipal: doc.sealedByPrincipal ?? '',
    sealedByClaim: doc.sealedByClaim ?? '',
    sealNote: doc.sealNote ?? '',
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    opId: doc.opId ?? '',
  };
}
