// Planning POST /deals/:id/advance: one trigger of the deal stage machine (reopen included).
// Spec: a trigger whose destination is already reached answers replayed: true; an illegal one is
// 409 with legalTriggers; advance never takes lose (it needs a reason: deal-lose.plan.ts).
import { ADVANCE_TRIGGERS, DEAL_STAGE_MACHINE, type AdvanceTrigger } from '@fieldops/contracts';
import { type RequestContext, AppError } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { deals } from '@fieldops/proto';
import { planDealTrigger, type DealTriggerPlan } from './deal-trigger.ts';

const isAdvanceTrigger = (value: string): value is AdvanceTrigger =>
  (ADVANCE_TRIGGERS as readonly string[]).includes(value);

export async function planAdvanceDeal(
  store: DocumentStore,
  req: deals.AdvanceDealRequest,
  ctx: RequestContext,
): Promise<WritePlan<deals.Deal>> {
  const trigger = req.trigger;
  if (!isAdvanceTrigger(trigger)) {
    const lose = DEAL_STAGE_MACHINE.isIn('notByAdvance', trigger)
      ? ` To lose a deal, call POST /deals/${req.id}/lose with a reason.`
      : '';
    throw new AppError(
      'field_invalid_enum',
      `trigger must be one of ${ADVANCE_TRIGGERS.join(', ')}.${lose}`,
      {
        field: 'trigger',
        allowed: [...ADVANCE_TRIGGERS],
      },
    );
  }
  return moveAsWritePlan(await planDealTrigger(store, ctx, { dealId: req.id, trigger }));
}

/** A move already made answers replayed (spec), stores nothing and emits nothing. */
export function moveAsWritePlan(move: DealTriggerPlan): WritePlan<deals.Deal> {
  if (move.ops.length === 0) {
    return unchangedPlan(
      move.deal,
      `Nothing would change: deal ${move.deal.id} is already at stage ${move.to}.`,
    );
  }
  return {
    ops: move.ops,
    result: move.deal,
    created: false,
    rehearsal: { willDo: `${capitalized(move.summary)}.`, effects: move.effects },
  };
}

const capitalized = (sentence: string): string => sentence.charAt(0).toUpperCase() + sentence.slice(1);
