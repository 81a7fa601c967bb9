// A design as stored, and its view. A design is drawn work on a project (a solar layout, a site
// plan, a survey design), recorded as a draft and sealed once, by a person's confirmation.
import type { DesignKind, DesignStatus } from '@fieldops/contracts';
import type { Doc } from '@fieldops/kit/store';
import { capture } from '@fieldops/proto';

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

/** The view is the message's fields of the document, absent ones at their defaults ('' for text). */
export function toDesignView(doc: DesignDoc): capture.Design {
  return capture.Design.fromPartial(doc);
}
