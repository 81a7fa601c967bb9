// Planning POST /deals/:id/lose: the lose trigger with its required reason, stored on the deal.
// Spec: idempotent when already lost (the first reason stays); 409 from a stage without a lose
// edge; reversible through the reopen trigger of advance.
import { DEAL_LOSE_REASON_MAX } from '@fieldops/contracts';
import { checkLengths } from '@fieldops/kit/domain';
import { type RequestContext, AppError } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import type { WritePlan } from '@fieldops/kit/write';
import type { deals } from '@fieldops/proto';
import { moveAsWritePlan } from './deal-advance.plan.ts';
import { planDealTrigger } from './deal-trigger.ts';

export async function planLoseDeal(
  store: DocumentStore,
  req: deals.LoseDealRequest,
  ctx: RequestContext,
): Promise<WritePlan<deals.Deal>> {
  const reason = req.reason.trim();
  if (!reason) {
    throw new AppError('field_required', 'reason is required to lose a deal: say why it was lost.', {
      field: 'reason',
    });
  }
  checkLengths({ reason: DEAL_LOSE_REASON_MAX }, { reason });
  return moveAsWritePlan(await planDealTrigger(store, ctx, { dealId: req.id, trigger: 'lose', reason }));
}
