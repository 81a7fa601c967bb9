// A deal as stored, and as the API shows it.
import { DEAL_STAGE_MACHINE, type DealStage } from '@fieldops/contracts';
import type { Complete } from '@fieldops/kit/domain';
import type { Doc } from '@fieldops/kit/store';
import type { deals } from '@fieldops/proto';

export interface DealDoc extends Doc {
  customerId: string;
  contactId?: string;
  expectedCloseAt?: string;
  stage: DealStage;
  /** Money is stored flat (cents + currency) so the pipeline summary can filter and sum on it. */
  valueCents: number;
  currency: string;
  /** Why the deal was lost; set by lose, cleared by reopen. */
  reason?: string;
  createdAt: string;
  updatedAt: string;
  stageChangedAt: string;
  opId?: string;
  /** The lead this deal was opened from by conversion. */
  leadId?: string;
}

/** Fields whose changes are reported (timeline, rehearsal effects, events). */
export const DEAL_CHANGE_FIELDS = [
  'customerId',
  'contactId',
  'expectedCloseAt',
  'stage',
  'valueCents',
  'currency',
  'reason',
] as const satisfies readonly (keyof DealDoc & string)[];

export function toDealView(doc: DealDoc): deals.Deal {
  return {
    id: doc.id,
    customerId: doc.customerId,
    contactId: doc.contactId,
    expectedCloseAt: doc.expectedCloseAt,
    stage: doc.stage,
    value: { cents: doc.valueCents, currency: doc.currency },
    reason: doc.reason,
    open: DEAL_STAGE_MACHINE.isIn('open', doc.stage),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    stageChangedAt: doc.stageChangedAt,
    opId: doc.opId,
    leadId: doc.leadId,
  } satisfies Complete<deals.Deal>;
}
